// A bulk import streams its file: the peak RSS of 20,000 records against 2,000.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, runCli, sandboxProcess, signIn, tempDir } from './common.mjs';

function patients(home, count) {
  const file = join(home, `bulk-${count}.ndjson`);
  const rows = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ first_name: `B${i}`, last_name: 'Bench', email: `bench.${count}.${i}@example.com` }),
  );
  writeFileSync(file, `${rows.join('\n')}\n`);
  return file;
}

export async function bulkMemoryBench() {
  const home = tempDir('clinic-bench-bulk-');
  const sandbox = await sandboxProcess(['--rate-limit', '0'], cleanEnv(home));
  try {
    const env = await signIn(home, sandbox.ready, '2');
    const small = await runCli(['customers', 'create', '--from', patients(home, 2000)], env);
    const large = await runCli(['customers', 'create', '--from', patients(home, 20000)], env);
    if (small.code !== 0 || large.code !== 0) throw new Error(`bulk failed: ${small.stderr}${large.stderr}`);
    return [
      {
        figure: 'bulk customers create --from, 20,000 records: peak RSS',
        value: `${large.rssMiB.toFixed(1)} MiB, ${((20000 / large.ms) * 1000).toFixed(0)} records/s`,
        baseline: `2,000 records: ${small.rssMiB.toFixed(1)} MiB`,
        ratio: large.rssMiB / small.rssMiB,
        target: 1.1,
      },
    ];
  } finally {
    sandbox.stop();
  }
}
