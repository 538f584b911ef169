// Several bulk requests in flight: each one's "sending" line is on disk when it arrives, results stay in file order
// whatever order the answers come in, and one in flight is the sequential run it always was.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { inFlightLimit } from '../../../src/core/bulk/in-flight.js';
import { readJournal } from '../../../src/core/bulk/journal.js';
import { type ResultRow, checkInput, prepareJournal, runBulk } from '../../../src/core/bulk/run.js';
import { BULK_SCHEMAS } from '../../../src/core/bulk/schemas.js';
import type { BulkSource } from '../../../src/core/bulk/source.js';
import { ApiError } from '../../../src/core/errors.js';
import type { HttpClient } from '../../../src/core/http/client.js';
import { useTempDir } from '../../helpers/temp-dir.js';

/** Where the runs send (a resume elsewhere is refused: e2e/bulk). */
const TARGET = { baseUrl: 'http://127.0.0.1:1/api', tenant: '1' };

const dir = useTempDir('clinic-bulk-in-flight-');
let runs = 0;

/** Records `{"n":1}` … `{"n":count}`, one per line: line k holds n = k. */
function source(count: number): BulkSource {
  const text = Array.from({ length: count }, (_, i) => JSON.stringify({ n: i + 1 })).join('\n') + '\n';
  return {
    name: 'records.ndjson',
    regular: true,
    firstPass: () => Readable.from([Buffer.from(text)]),
    reread: () => Readable.from([Buffer.from(text)]),
    close: async () => undefined,
  };
}

/**
 * A server in the test: `answer(n, arrival)` decides each record's answer; at each arrival it reads the journal
 * from disk, as a crash at that moment would leave it, and notes the state of the record's line.
 */
function server(journalPath: string, answer: (n: number) => Promise<unknown>) {
  let inFlight = 0;
  const seen = { most: 0, onDisk: new Map<number, string | undefined>(), order: [] as number[] };
  const client = {
    async request(request: { body?: { n: number }; onDispatch?: (dispatched: boolean) => void }) {
      request.onDispatch?.(true); // as the client: the request is handed to the transport at once
      const n = (request.body as { n: number }).n;
      inFlight++;
      seen.most = Math.max(seen.most, inFlight);
      seen.order.push(n);
      const journal = await readJournal(journalPath);
      seen.onDisk.set(n, journal?.lines.get(n)?.state);
      try {
        await answer(n);
        return { status: 201, headers: {}, json: () => ({ data: { id: n * 100 } }) };
      } finally {
        inFlight--;
      }
    },
  } as unknown as HttpClient;
  return { client, seen };
}

async function bulkRun(
  count: number,
  concurrency: number | undefined,
  answer: (n: number) => Promise<unknown>,
) {
  const input = await checkInput({
    schema: BULK_SCHEMAS.customers,
    source: source(count),
    format: 'ndjson',
    amend: (record) => record,
  });
  const path = join(dir.path, `run-${++runs}.journal`);
  const { journal } = await prepareJournal(path, input, 'new', TARGET);
  const { client, seen } = server(path, answer);
  const rows: ResultRow[] = [];
  const onResult = async (row: ResultRow) => void rows.push(row);
  const signal = new AbortController().signal;
  const inFlight = inFlightLimit(concurrency);
  const options = { client, input, journal, signal, inFlight, onResult, retryUnknown: false };
  try {
    const summary = await runBulk(options);
    return { summary, rows, seen, journalText: await readFile(path, 'utf8') };
  } finally {
    await journal.close();
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('--concurrency N', () => {
  it('every request finds its "sending" line already on disk when it arrives, with N in flight', async () => {
    const { summary, seen, rows } = await bulkRun(40, 4, async () => {
      for (let i = 0; i < 3; i++) await tick(); // answers overlap
    });
    expect(summary.stoppedBy).toBeUndefined();
    expect(seen.most).toBe(4);
    expect(seen.order).toHaveLength(40);
    for (const n of seen.order) expect(seen.onDisk.get(n), `line ${n}`).toBe('sending');
    expect(rows.every((row) => row.status === 'ok')).toBe(true);
  });

  it('results stay in file order when the answers come back in reverse', async () => {
    // After line 1 (alone), each answer waits until every later record of its batch of 5 has been answered.
    const answered = new Set<number>();
    const { rows, seen } = await bulkRun(21, 5, async (n) => {
      const last = n === 1 ? 1 : n + 4 - ((n - 2) % 5);
      for (let later = last; later > n; later--) while (!answered.has(later)) await tick();
      answered.add(n);
    });
    expect(seen.most).toBe(5);
    expect(rows.map((row) => row.line)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(rows.map((row) => (row as { id: number }).id)).toEqual(
      Array.from({ length: 21 }, (_, i) => (i + 1) * 100),
    );
  });

  it('--concurrency 1 is sequential: one in flight, "sending" then the outcome, line by line', async () => {
    const { seen, journalText } = await bulkRun(6, 1, tick);
    expect(seen.most).toBe(1);
    const entries = journalText
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as { line: number; state: string });
    expect(entries.map((e) => `${e.line}:${e.state}`)).toEqual(
      [1, 2, 3, 4, 5, 6].flatMap((line) => [`${line}:sending`, `${line}:ok`]),
    );
  });

  it('an answer that dooms the rest stops the run: what was in flight is reported, the rest not attempted', async () => {
    let refused = false;
    const { summary, rows, seen } = await bulkRun(12, 3, async (n) => {
      if (n === 3) while (!refused) await tick(); // line 3 (in flight with 2 and 4) is answered after the refusal
      if (n === 2) {
        refused = true;
        throw new ApiError({ status: 403, message: 'forbidden' });
      }
    });
    expect(seen.order.sort()).toEqual([1, 2, 3, 4]); // the first alone, then three
    expect(summary.stoppedBy).toBeInstanceOf(ApiError);
    expect(rows.map((row) => row.line)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(rows[1]).toMatchObject({ status: 'error', http_status: 403 });
    expect(rows.slice(2, 4).map((row) => row.status)).toEqual(['ok', 'ok']);
    expect(rows.slice(4).every((row) => row.status === 'not_attempted')).toBe(true);
  });
});

describe('the in-flight limit', () => {
  it('automatic: one at a time until an answer states a budget, then up to 8, never more than is left', () => {
    const limit = inFlightLimit(undefined);
    expect(limit.allowed()).toBe(1);
    limit.observe({});
    expect(limit.allowed()).toBe(1);
    limit.observe({ 'x-ratelimit-remaining': '500' });
    expect(limit.allowed()).toBe(8);
    limit.observe({ 'x-ratelimit-remaining': '3' });
    expect(limit.allowed()).toBe(3);
    limit.observe({ 'x-ratelimit-remaining': '0' });
    expect(limit.allowed()).toBe(1);
  });

  it('--concurrency N: the first alone, then N, capped by what the window has left', () => {
    const limit = inFlightLimit(5);
    expect(limit.allowed()).toBe(1);
    limit.observe(undefined);
    expect(limit.allowed()).toBe(5);
    limit.observe({ 'x-ratelimit-remaining': '2' });
    expect(limit.allowed()).toBe(2);
  });
});
