// Streaming exports: records/s against a bash loop of curl + jq over the same pages, and peak RSS of a
// 100,000-record export against a 10,000-record one.
import { execFileSync } from 'node:child_process';
import { runCli, sandboxProcess, signIn, tempDir, cleanEnv } from './common.mjs';

const RECORDS = 100_000;
const SMALL = 10_000;

/** The baseline: what a shell script would do. */
function curlJq(ready, pages) {
  const script = `for p in $(seq 1 ${pages}); do
  curl -s -H "Authorization: Bearer $TOKEN" -H 'X-Tenant: 1' -H 'Accept: application/json' \\
    "$BASE/v1/customers?page=$p&per_page=100" | jq -c '.data[]'
done | wc -l`;
  const start = process.hrtime.bigint();
  const out = execFileSync('bash', ['--noprofile', '--norc', '-c', script], {
    env: { PATH: '/usr/bin:/bin', TOKEN: ready.token, BASE: ready.base_url },
  });
  return { lines: Number(String(out).trim()), ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

export async function exportBench() {
  const home = tempDir('clinic-bench-export-');
  const sandbox = await sandboxProcess(['--rate-limit', '0', '--records', String(RECORDS)], cleanEnv(home));
  try {
    const env = await signIn(home, sandbox.ready);
    const cli = [];
    const shell = [];
    for (let i = 0; i < 3; i++) {
      shell.push(curlJq(sandbox.ready, SMALL / 100));
      cli.push(await runCli(['customers', 'list', '--all', '--limit', String(SMALL), '-o', 'ndjson'], env));
    }
    const best = (list) => list.reduce((a, b) => (a.ms < b.ms ? a : b));
    const c = best(cli);
    const s = best(shell);
    if (c.lines !== SMALL || s.lines !== SMALL)
      throw new Error(`export lines: clinic ${c.lines}, curl ${s.lines}`);
    const cliRate = (c.lines / c.ms) * 1000;
    const shellRate = (s.lines / s.ms) * 1000;
    const large = await runCli(['customers', 'list', '--all', '-o', 'ndjson'], env);
    const small = await runCli(['customers', 'list', '--all', '--limit', String(SMALL), '-o', 'ndjson'], env);
    if (large.lines !== RECORDS) throw new Error(`the large export wrote ${large.lines} lines`);
    const csv = await runCli(['customers', 'list', '--all', '-o', 'csv'], env);
    const smallCsv = await runCli(['customers', 'list', '--all', '--limit', String(SMALL), '-o', 'csv'], env);
    return [
      {
        figure: `export of ${SMALL.toLocaleString('en')} records, rate limit off (best of 3)`,
        value: `${cliRate.toFixed(0)} records/s`,
        baseline: `bash loop of curl + jq: ${shellRate.toFixed(0)} records/s`,
        ratio: cliRate / shellRate,
        target: 2,
        atLeast: true,
      },
      {
        figure: `peak RSS, ${RECORDS.toLocaleString('en')}-record export (-o ndjson)`,
        value: `${large.rssMiB.toFixed(1)} MiB`,
        baseline: `${SMALL.toLocaleString('en')} records: ${small.rssMiB.toFixed(1)} MiB`,
        ratio: large.rssMiB / small.rssMiB,
        target: 1.1,
        extra: large.rssMiB < 150 ? 'under 150 MiB' : 'OVER 150 MiB',
        ok: large.rssMiB < 150,
      },
      {
        figure: `peak RSS, ${RECORDS.toLocaleString('en')}-record export (-o csv)`,
        value: `${csv.rssMiB.toFixed(1)} MiB`,
        baseline: `${SMALL.toLocaleString('en')} records: ${smallCsv.rssMiB.toFixed(1)} MiB`,
        ratio: csv.rssMiB / smallCsv.rssMiB,
        target: 1.1,
        ok: csv.rssMiB < 150,
      },
    ];
  } finally {
    sandbox.stop();
  }
}
