// Streaming exports of 100,000 records against the floor: a minimal sequential node:http client (floor.mjs) run in
// the same rounds, A B A B, so a ratio is taken round by round; the memory policy's cost (the same export with
// node:v8 withheld, so nothing is tuned or collected); peak RSS of 100,000 records against 10,000; what the machine's
// cores allow (each run's CPU, the sandbox's and the reader's); and the same exports from a sandbox a round trip away.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { cleanEnv, median, runCli, runNode, sandboxProcess, signIn, spread, tempDir } from './common.mjs';

const RECORDS = 100_000;
const SMALL = 10_000;
/** The sandbox a round trip away: each answer waits LATENCY_MS (`--latency`), DISTANT_RECORDS records. */
const LATENCY_MS = 2;
const DISTANT_RECORDS = 20_000;
const FLOOR = fileURLToPath(new URL('./floor.mjs', import.meta.url));
const NO_POLICY = fileURLToPath(new URL('./no-memory-policy.cjs', import.meta.url));

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

/**
 * Runs every candidate once unmeasured (the sandbox's and the OS's caches), then `rounds` rounds of them in turn;
 * each run also gets the CPU the sandbox, the reader of its stdout and this process spent meanwhile.
 */
async function alternateRuns(candidates, rounds, sandbox, lines) {
  const results = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
  for (const run of Object.values(candidates)) await run();
  for (let round = 0; round < rounds; round++)
    for (const [name, run] of Object.entries(candidates)) {
      const serverBefore = sandbox.cpuMs();
      const serverMainBefore = sandbox.mainCpuMs();
      const harnessBefore = process.cpuUsage();
      const result = await run();
      const harness = process.cpuUsage(harnessBefore);
      result.serverMs = sandbox.cpuMs() - serverBefore;
      result.serverMainMs = sandbox.mainCpuMs() - serverMainBefore;
      // The reader of its stdout (wc -l) and this process (the harness), which ran meanwhile too.
      result.readerMs += (harness.user + harness.system) / 1000;
      if (result.lines !== lines) throw new Error(`${name} wrote ${result.lines} lines: ${result.stderr}`);
      results[name].push(result);
    }
  return results;
}

/** Each round's records/s of `name` over the floor's of the same round. */
const ratiosOf = (results, name, base = 'floor') =>
  results[name].map((run, round) => rate(run) / rate(results[base][round]));

/**
 * The most a run could reach against the floor of its round on this machine's cores: no run is faster than its main
 * thread's CPU time, nor than the sandbox's main thread's (each a thread on one core), nor than all the CPU spent
 * meanwhile (every thread of the client, the sandbox and the reader) spread over every core. NaN where /proc has no
 * figure.
 */
const ceilingsOf = (results, name, cores) =>
  results[name].map((run, round) => {
    const spent = run.cpuMs + run.serverMs + run.readerMs;
    return results.floor[round].ms / Math.max(run.mainCpuMs, run.serverMainMs, spent / cores);
  });

const times = (value) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a');

/** The floor against `sandbox`, with `inFlight` pages in flight. */
const floorRun = (sandbox, env, inFlight) => () =>
  runNode([FLOOR, sandbox.ready.base_url, sandbox.ready.token, '1', String(inFlight)], env);

/** An info row: a candidate's records/s and its median ratio to the floor. */
const overlapRowOf = (results, figure, name) => ({
  figure,
  value: `${rates(results[name])} records/s, ${times(median(ratiosOf(results, name)))} the floor`,
  baseline: `floor: ${rates(results.floor)} records/s`,
  info: true,
});

export async function exportBench(runs) {
  const rounds = Math.max(3, Math.min(runs, 9));
  // One sandbox at a time: the local one has stopped before the distant one starts.
  const local = await localExports(rounds);
  return [...local, ...(await distantExports(rounds))];
}

/** The exports against the local sandbox of RECORDS records, and their memory. */
async function localExports(rounds) {
  const home = tempDir('clinic-bench-export-');
  const sandbox = await sandboxProcess(['--rate-limit', '0', '--records', String(RECORDS)], cleanEnv(home));
  try {
    const env = await signIn(home, sandbox.ready);
    const all = ['customers', 'list', '--all', '-o', 'ndjson'];
    const candidates = {
      floor: floorRun(sandbox, env, 1),
      floor2: floorRun(sandbox, env, 2),
      floor4: floorRun(sandbox, env, 4),
      sequential: () => runCli(['--concurrency', '1', ...all], env),
      automatic: () => runCli(all, env),
      noPolicy: () => runCli(['--concurrency', '1', ...all], env, ['--require', NO_POLICY]),
    };
    const results = await alternateRuns(candidates, rounds, sandbox, RECORDS);
    const perRound = (name, base = 'floor') => ratiosOf(results, name, base);
    const ratioRow = (figure, name, target) => ratioRowOf(results, figure, name, target);
    const overlapRow = (figure, name) => overlapRowOf(results, figure, name);
    const cpu = (name) => spread(results[name].map((run) => run.cpuMs / 1000));
    const cpuOf = (name, key) => median(results[name].map((run) => run[key] / 1000)).toFixed(2);
    const cpuText = (name) =>
      `${cpuOf(name, 'cpuMs')} s (main thread ${cpuOf(name, 'mainCpuMs')}) + sandbox ${cpuOf(name, 'serverMs')} + reader ${cpuOf(name, 'readerMs')} s`;
    const cores = availableParallelism();
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
      overlapRow('floor with 2 pages in flight (what overlap alone gives)', 'floor2'),
      overlapRow('floor with 4 pages in flight (as many as automatic concurrency)', 'floor4'),
      {
        figure: 'CPU seconds of the export (user + system)',
        value: `--concurrency 1: ${cpu('sequential')} s; automatic: ${cpu('automatic')} s`,
        baseline: `floor: ${cpu('floor')} s`,
        info: true,
      },
      {
        figure: `what ${cores} cores allow: the floor's time over the least a run could take with the CPU it, the sandbox and the reader spent`,
        value: `automatic: ${times(median(ceilingsOf(results, 'automatic', cores)))} (it measured ${times(median(perRound('automatic')))}); floor with 4 pages in flight: ${times(median(ceilingsOf(results, 'floor4', cores)))} (measured ${times(median(perRound('floor4')))})`,
        baseline: `CPU: automatic ${cpuText('automatic')}; floor with 4: ${cpuText('floor4')}`,
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
    await sandbox.stop();
  }
}

/** A figure's row: the median of its rounds' ratios to the floor, with their spread, against the target. */
function ratioRowOf(results, figure, name, target) {
  const ratios = ratiosOf(results, name);
  return {
    figure,
    value: `${rates(results[name])} records/s`,
    baseline: `floor: ${rates(results.floor)} records/s`,
    ratio: median(ratios),
    spread: [Math.min(...ratios), Math.max(...ratios)],
    target,
    atLeast: true,
  };
}

/**
 * The exports against a sandbox whose answers each wait LATENCY_MS (a server a short network away, as the API is):
 * what pages in flight are for, hiding the time a page spends on its way, where the local sandbox has none to hide.
 */
async function distantExports(rounds) {
  const home = tempDir('clinic-bench-distant-');
  const args = ['--rate-limit', '0', '--records', String(DISTANT_RECORDS), '--latency', String(LATENCY_MS)];
  const sandbox = await sandboxProcess(args, cleanEnv(home));
  try {
    const env = await signIn(home, sandbox.ready);
    const all = ['customers', 'list', '--all', '-o', 'ndjson'];
    const results = await alternateRuns(
      {
        floor: floorRun(sandbox, env, 1),
        floor4: floorRun(sandbox, env, 4),
        sequential: () => runCli(['--concurrency', '1', ...all], env),
        automatic: () => runCli(all, env),
      },
      rounds,
      sandbox,
      DISTANT_RECORDS,
    );
    const away = `from a sandbox ${LATENCY_MS} ms away (--latency ${LATENCY_MS})`;
    const records = DISTANT_RECORDS.toLocaleString('en');
    return [
      ratioRowOf(results, `export of ${records} records ${away}, --concurrency 1`, 'sequential', 0.9),
      ratioRowOf(results, `export of ${records} records ${away}, automatic concurrency`, 'automatic', 1.5),
      overlapRowOf(results, `floor with 4 pages in flight, ${away}`, 'floor4'),
    ];
  } finally {
    await sandbox.stop();
  }
}
