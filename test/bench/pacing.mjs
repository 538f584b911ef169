// At the ceiling, never over it: with the sandbox's rate limit on, a long export and a bulk run reach the ceiling
// with zero 429, a naive client's 429s are counted for comparison, and two exports of one user share the quota.
// Each figure is read from the sandbox's own accounting of its windows.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox } from '../../dist/sandbox/index.js';
import { runCli, signIn, sleep, tempDir } from './common.mjs';

const LIMIT = 60;
const WINDOW_S = 30;
const PER_PAGE = 10;
const PAGES = 150; // two and a half windows

async function pacedSandbox() {
  return startSandbox({
    port: 0,
    rateLimit: LIMIT,
    rateWindowSeconds: WINDOW_S,
    records: 2000,
    erasureStepSeconds: 0,
  });
}

/** Requests per second the server let through over its complete windows (gaps between windows included). */
function throughput(windows) {
  const mine = windows.filter((w) => w.caller === 'user:1').sort((a, b) => a.startMs - b.startMs);
  if (mine.length < 2) throw new Error('the run did not span two windows');
  const complete = mine.slice(0, -1);
  const hits = complete.reduce((sum, w) => sum + w.hits, 0);
  const seconds = (mine.at(-1).startMs - mine[0].startMs) / 1000;
  return {
    perSecond: hits / seconds,
    refused: mine.reduce((sum, w) => sum + w.refused, 0),
    windows: mine.length,
  };
}

/** A naive client: pages as fast as it can, waiting only when told to by a 429's Retry-After. */
async function naiveClient(sandbox) {
  const { base_url, token } = sandbox.info;
  for (let page = 1; page <= PAGES;) {
    const answer = await fetch(`${base_url}/v1/customers?page=${page}&per_page=${PER_PAGE}`, {
      headers: { authorization: `Bearer ${token}`, 'x-tenant': '1', accept: 'application/json' },
    });
    await answer.arrayBuffer();
    if (answer.status === 429) await sleep(Number(answer.headers.get('retry-after') ?? 1) * 1000);
    else page++;
  }
}

const exportArgs = (pages) => [
  'customers',
  'list',
  '--all',
  '--per-page',
  String(PER_PAGE),
  '--limit',
  String(pages * PER_PAGE),
  '-o',
  'ndjson',
];

export async function pacingBench() {
  const ceiling = LIMIT / WINDOW_S;
  const [paced, naive, bulk, shared] = await Promise.all([1, 2, 3, 4].map(() => pacedSandbox()));
  try {
    // An export and a naive client, side by side on two sandboxes.
    const exportEnv = await signIn(tempDir('clinic-bench-pace-'), paced.info);
    await Promise.all([runCli(exportArgs(PAGES), exportEnv), naiveClient(naive)]);
    const ours = throughput(paced.rateWindows());
    const theirs = throughput(naive.rateWindows());
    // A bulk run, and two exports of one user at once, side by side.
    const bulkHome = tempDir('clinic-bench-bulk-');
    const bulkEnv = await signIn(bulkHome, bulk.info);
    const file = join(bulkHome, 'patients.ndjson');
    const rows = Array.from({ length: PAGES }, (_, i) =>
      JSON.stringify({ first_name: `P${i}`, last_name: 'Pace' }),
    );
    writeFileSync(file, `${rows.join('\n')}\n`);
    const sharedEnv = await signIn(tempDir('clinic-bench-shared-'), shared.info);
    const [bulkRun, a, b] = await Promise.all([
      runCli(['customers', 'create', '--from', file], bulkEnv),
      runCli(exportArgs(PAGES / 2), sharedEnv),
      runCli(exportArgs(PAGES / 2), sharedEnv),
    ]);
    for (const run of [bulkRun, a, b])
      if (run.code !== 0) throw new Error(`a paced run failed: ${run.stderr}`);
    const bulkT = throughput(bulk.rateWindows());
    const pair = throughput(shared.rateWindows());
    const row = (figure, t, extra) => ({
      figure,
      value: `${t.perSecond.toFixed(2)} requests/s, ${t.refused} × 429`,
      baseline: `ceiling ${LIMIT} per ${WINDOW_S} s window: ${ceiling.toFixed(2)}/s`,
      ratio: t.perSecond / ceiling,
      target: 0.95,
      atLeast: true,
      ok: t.refused === 0,
      extra,
    });
    return [
      row(`export, ${PAGES} pages of ${PER_PAGE} (${ours.windows} windows)`, ours),
      row(`bulk customers create --from, ${PAGES} records (${bulkT.windows} windows)`, bulkT),
      row('two exports of one user at once (shared budget)', pair),
      {
        figure: 'a naive client (no pacing, waits only on 429)',
        value: `${theirs.perSecond.toFixed(2)} requests/s, ${theirs.refused} × 429`,
        baseline: 'clinic: 0 × 429',
        ratio: theirs.perSecond / ceiling,
        info: true,
      },
    ];
  } finally {
    await Promise.all([paced, naive, bulk, shared].map((s) => s.close()));
  }
}
