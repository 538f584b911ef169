// A bulk import streams its file: the peak RSS of 40,000 records against 10,000. Both runs are long enough for V8 to
// have grown its young generation to its cap (a run of 2,000 records ends before that, some 20 MiB lower, and would
// measure V8's warm-up rather than any growth with the size of the file).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, runCli, sandboxProcess, signIn, tempDir } from './common.mjs';

const SMALL = 10_000;
const LARGE = 40_000;

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
    const small = await runCli(['customers', 'create', '--from', patients(home, SMALL)], env);
    const large = await runCli(['customers', 'create', '--from', patients(home, LARGE)], env);
    if (small.code !== 0 || large.code !== 0) throw new Error(`bulk failed: ${small.stderr}${large.stderr}`);
    return [
      {
        figure: `bulk customers create --from, ${LARGE.toLocaleString('en')} records: peak RSS`,
        value: `${large.rssMiB.toFixed(1)} MiB, ${((LARGE / large.ms) * 1000).toFixed(0)} records/s`,
        baseline: `${SMALL.toLocaleString('en')} records: ${small.rssMiB.toFixed(1)} MiB`,
        ratio: large.rssMiB / small.rssMiB,
        target: 1.1,
      },
    ];
  } finally {
    sandbox.stop();
  }
}
