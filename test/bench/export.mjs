// Streaming exports of 100,000 records against the floor: a minimal sequential node:http client (floor.mjs) run in
// the same rounds, A B A B, so a ratio is taken round by round; the memory policy's cost (the same export with
// node:v8 withheld, so nothing is tuned or collected); peak RSS of 100,000 records against 10,000.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cleanEnv, median, runCli, runNode, sandboxProcess, signIn, spread, tempDir } from './common.mjs';

const RECORDS = 100_000;
const SMALL = 10_000;
const FLOOR = fileURLToPath(new URL('./floor.mjs', import.meta.url));
const NO_POLICY = fileURLToPath(new URL('./no-memory-policy.mjs', import.meta.url));

/** An info row's figure: a bash loop of curl + jq over the same pages (it mostly measures process spawns). */
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

const rate = (run) => (run.lines / run.ms) * 1000;
const rates = (list) => spread(list.map(rate), 0);

export async function exportBench(runs) {
  const rounds = Math.max(3, Math.min(runs, 9));
  const home = tempDir('clinic-bench-export-');
  const sandbox = await sandboxProcess(['--rate-limit', '0', '--records', String(RECORDS)], cleanEnv(home));
  try {
    const env = await signIn(home, sandbox.ready);
    const all = ['customers', 'list', '--all', '-o', 'ndjson'];
    const candidates = {
      floor: () => runNode([FLOOR, sandbox.ready.base_url, sandbox.ready.token, '1', '1'], env),
      floor2: () => runNode([FLOOR, sandbox.ready.base_url, sandbox.ready.token, '1', '2'], env),
      sequential: () => runCli(['--concurrency', '1', ...all], env),
      automatic: () => runCli(all, env),
      noPolicy: () => runCli(['--concurrency', '1', ...all], env, ['--import', NO_POLICY]),
    };
    const results = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
    for (const run of Object.values(candidates)) await run(); // the sandbox's and the page cache's first pass
    for (let round = 0; round < rounds; round++)
      for (const [name, run] of Object.entries(candidates)) {
        const result = await run();
        if (result.lines !== RECORDS)
          throw new Error(`${name} wrote ${result.lines} lines: ${result.stderr}`);
        results[name].push(result);
      }
    const perRound = (name, base = 'floor') =>
      results[name].map((run, round) => rate(run) / rate(results[base][round]));
    const ratioRow = (figure, name, target) => {
      const ratios = perRound(name);
      return {
        figure,
        value: `${rates(results[name])} records/s`,
        baseline: `floor: ${rates(results.floor)} records/s`,
        ratio: median(ratios),
        spread: [Math.min(...ratios), Math.max(...ratios)],
        target,
        atLeast: true,
      };
    };
    const cpu = (name) => spread(results[name].map((run) => run.cpuMs / 1000));
    const policy = perRound('noPolicy', 'sequential');

    const large = results.sequential.map((run) => run.rssMiB);
    // Each large export against the small one run the same way (growth with the size, not with concurrency).
    const small = [];
    const smallAutomatic = [];
    for (let round = 0; round < 3; round++) {
      const limited = [...all.slice(0, 3), '--limit', String(SMALL), '-o', 'ndjson'];
      small.push((await runCli(['--concurrency', '1', ...limited], env)).rssMiB);
      smallAutomatic.push((await runCli(limited, env)).rssMiB);
    }
    const csv = await runCli(['customers', 'list', '--all', '-o', 'csv'], env);
    const smallCsv = await runCli(['customers', 'list', '--all', '--limit', String(SMALL), '-o', 'csv'], env);
    const shell = curlJq(sandbox.ready, SMALL / 100);
    return [
      ratioRow(
        `export of ${RECORDS.toLocaleString('en')} records, --concurrency 1, rate limit off`,
        'sequential',
        0.9,
      ),
      ratioRow(
        `export of ${RECORDS.toLocaleString('en')} records, automatic concurrency, rate limit off`,
        'automatic',
        1.5,
      ),
      {
        figure: 'floor with 2 pages in flight (what overlap alone gives)',
        value: `${rates(results.floor2)} records/s`,
        baseline: `floor: ${rates(results.floor)} records/s`,
        info: true,
      },
      {
        figure: 'CPU seconds of the export (user + system)',
        value: `--concurrency 1: ${cpu('sequential')} s; automatic: ${cpu('automatic')} s`,
        baseline: `floor: ${cpu('floor')} s`,
        info: true,
      },
      {
        figure: 'the memory policy: --concurrency 1 export without it, over with it (records/s)',
        value: `${spread(policy)}× (without: ${rates(results.noPolicy)} records/s)`,
        baseline: `peak RSS without: ${spread(
          results.noPolicy.map((run) => run.rssMiB),
          1,
        )} MiB`,
        info: true,
      },
      {
        figure: `peak RSS, ${RECORDS.toLocaleString('en')}-record export (-o ndjson, --concurrency 1)`,
        value: `${spread(large, 1)} MiB`,
        baseline: `${SMALL.toLocaleString('en')} records: ${spread(small, 1)} MiB`,
        ratio: median(large) / median(small),
        target: 1.15,
        extra: median(large) < 100 ? 'under 100 MiB' : 'OVER 100 MiB',
        ok: median(large) < 100,
      },
      {
        figure: `peak RSS, ${RECORDS.toLocaleString('en')}-record export (-o ndjson, automatic concurrency)`,
        value: `${spread(
          results.automatic.map((run) => run.rssMiB),
          1,
        )} MiB`,
        baseline: `${SMALL.toLocaleString('en')} records, automatic concurrency: ${spread(smallAutomatic, 1)} MiB`,
        ratio: median(results.automatic.map((run) => run.rssMiB)) / median(smallAutomatic),
        target: 1.15,
        ok: median(results.automatic.map((run) => run.rssMiB)) < 100,
      },
      {
        figure: `peak RSS, ${RECORDS.toLocaleString('en')}-record export (-o csv)`,
        value: `${csv.rssMiB.toFixed(1)} MiB`,
        baseline: `${SMALL.toLocaleString('en')} records: ${smallCsv.rssMiB.toFixed(1)} MiB`,
        ratio: csv.rssMiB / smallCsv.rssMiB,
        target: 1.15,
        ok: csv.rssMiB < 100,
      },
      {
        figure: `export of ${SMALL.toLocaleString('en')} records by a bash loop of curl + jq (one run; mostly process spawns)`,
        value: `${rate(shell).toFixed(0)} records/s`,
        baseline: `${shell.lines} lines`,
        info: true,
      },
    ];
  } finally {
    sandbox.stop();
  }
}
