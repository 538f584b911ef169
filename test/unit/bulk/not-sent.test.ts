// A record stopped before its request left (Ctrl-C, or a window too long to wait for, while it waited for the
// rate-limit window) is journaled not_sent, never unknown: the server never saw it, so a resume sends it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { readJournal } from '../../../src/core/bulk/journal.js';
import { type ResultRow, checkInput, prepareJournal, runBulk } from '../../../src/core/bulk/run.js';
import { BULK_SCHEMAS } from '../../../src/core/bulk/schemas.js';
import { systemClock } from '../../../src/core/clock.js';
import { CancelledError, RateLimitedError } from '../../../src/core/errors.js';
import { HttpClient } from '../../../src/core/http/client.js';
import { NodeTransport } from '../../../src/core/http/transport.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const dir = useTempDir('clinic-bulk-not-sent-');
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that creates every customer posted to it (`refuse` answers 429 instead): how many it received. */
async function api(refuse = (_post: number) => false): Promise<{ baseUrl: string; posts: () => number }> {
  let posts = 0;
  server = createServer((req, res) => {
    posts++;
    req.resume().on('end', () => {
      if (refuse(posts)) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' });
        return res.end(JSON.stringify({ message: 'Too Many Attempts.' }));
      }
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { id: posts } }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, posts: () => posts };
}

/**
 * Three records through the real client, whose pacer lets the first go at once and then asks for `waitMs` (calling
 * `whileWaiting` once): the run's rows, what stopped it, the journal's last state of each line and the posts received.
 */
async function run(
  waitMs: number,
  whileWaiting: (controller: AbortController) => void = () => {},
  refuse?: (post: number) => boolean,
  onController?: (controller: AbortController) => void,
  stop?: AbortSignal,
) {
  const { baseUrl, posts } = await api(refuse);
  const controller = new AbortController();
  onController?.(controller);
  let slots = 0;
  const pacer = {
    slot: async () => {
      if (slots++ === 0) return 0;
      if (slots === 2) whileWaiting(controller);
      return waitMs;
    },
    observe: async () => {},
  };
  const transport = new NodeTransport();
  const client = new HttpClient({
    baseUrl,
    userAgent: 't',
    transport,
    clock: systemClock,
    tenant: '1',
    maxRetries: refuse ? 3 : 0,
    timeoutMs: 10_000,
    signal: controller.signal,
    pacer,
  });
  const text = `${[1, 2, 3].map((n) => JSON.stringify({ first_name: `F${n}`, last_name: 'L' })).join('\n')}\n`;
  const source = {
    name: 'r.ndjson',
    regular: true,
    firstPass: () => Readable.from([Buffer.from(text)]),
    reread: () => Readable.from([Buffer.from(text)]),
    close: async () => undefined,
  };
  const input = await checkInput({
    schema: BULK_SCHEMAS.customers,
    source,
    format: 'ndjson',
    amend: (r) => r,
  });
  const path = join(dir.path, 'r.journal');
  const { journal } = await prepareJournal(path, input, 'new', { baseUrl, tenant: '1' });
  const rows: ResultRow[] = [];
  let summary;
  try {
    summary = await runBulk({
      client,
      input,
      journal,
      signal: controller.signal,
      stop,
      retryUnknown: false,
      onResult: async (row) => void rows.push(row),
    });
  } finally {
    await journal.close();
    await transport.close();
  }
  const lines = (await readJournal(path))!.lines;
  return {
    rows,
    stoppedBy: summary.stoppedBy,
    states: [1, 2, 3].map((n) => lines.get(n)?.state),
    posts: posts(),
  };
}

it('Ctrl-C while a record waits for the rate-limit window: that record is not_sent, not unknown', async () => {
  const result = await run(60_000, (controller) => setTimeout(() => controller.abort(), 50));
  expect(result.posts).toBe(1);
  expect(result.stoppedBy).toBeInstanceOf(CancelledError);
  expect(result.rows.map((row) => row.status)).toEqual(['ok', 'not_attempted']);
  expect(result.rows[1]).toMatchObject({ line: 2, message: 'not sent: interrupted' });
  expect(result.states).toEqual(['ok', 'not_sent', undefined]);
});

it('a window too long to wait for stops the run at that record, not_sent; the rest not attempted', async () => {
  const result = await run(10 * 60_000);
  expect(result.posts).toBe(1);
  expect(result.stoppedBy).toBeInstanceOf(RateLimitedError);
  expect(result.rows.map((row) => row.status)).toEqual(['ok', 'not_attempted', 'not_attempted']);
  expect(result.states).toEqual(['ok', 'not_sent', undefined]);
});

it('Ctrl-C while a record answered 429 waits to go again: not_sent, not unknown (the 429 says it was not processed)', async () => {
  let controller: AbortController | undefined;
  const result = await run(
    0,
    () => {},
    (post) => {
      if (post !== 2) return false;
      setTimeout(() => controller?.abort(), 200);
      return true;
    },
    (c) => (controller = c),
  );
  expect(result.posts).toBe(2);
  expect(result.rows.map((row) => row.status)).toEqual(['ok', 'not_attempted']);
  expect(result.states).toEqual(['ok', 'not_sent', undefined]);
});

it('the output closed while a record waits for the rate-limit window: it is held back, not_sent, and the run ends', async () => {
  const stop = new AbortController();
  const started = Date.now();
  const result = await run(
    60_000,
    () => setTimeout(() => stop.abort(), 50),
    undefined,
    undefined,
    stop.signal,
  );
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(result.posts).toBe(1);
  expect(result.rows.slice(0, 2)).toMatchObject([
    { status: 'ok' },
    { status: 'not_attempted', message: 'not sent: the output was closed' },
  ]);
  expect(result.states).toEqual(['ok', 'not_sent', undefined]);
  expect((result.stoppedBy as Error).message).toMatch(/^the output was closed/);
});
