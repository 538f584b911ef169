// A request's own abort signal: it stops that request in flight or in a retry wait, with the client's own signal
// still in force, and other requests of the same client go on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeTransport } from '../../../src/core/http/transport.js';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { CancelledError } from '../../../src/core/errors.js';
import { HttpClient } from '../../../src/core/http/client.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  return new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

/** `/hang` never answers; `/busy` answers 503 (retried after a long back-off); anything else answers at once. */
async function start(): Promise<string> {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/api/hang')) return;
    res.writeHead(req.url?.startsWith('/api/busy') ? 503 : 200, {
      'content-type': 'application/json',
      'retry-after': '60',
    });
    res.end('{"data":[]}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/api`;
}

function client(baseUrl: string, signal?: AbortSignal) {
  return new HttpClient({
    baseUrl,
    userAgent: 't',
    transport: new NodeTransport(),
    clock: systemClock,
    maxRetries: 3,
    timeoutMs: 60_000,
    signal,
  });
}

/** Sends GET `path` with its own signal, aborts that signal after `ms`: the request ends cancelled, and soon. */
async function expectAbortedAfter(http: HttpClient, path: string, ms: number) {
  const controller = new AbortController();
  const pending = http.request({ method: 'GET', path, signal: controller.signal });
  setTimeout(() => controller.abort(), ms);
  const started = Date.now();
  await expect(pending).rejects.toBeInstanceOf(CancelledError);
  expect(Date.now() - started).toBeLessThan(5_000);
}

describe('a request signal', () => {
  it('aborts that request in flight; the client goes on serving others', async () => {
    const http = client(await start());
    await expectAbortedAfter(http, '/hang', 100);
    expect((await http.request({ method: 'GET', path: '/ok' })).status).toBe(200);
  });

  it('aborts a wait before a retry', async () => {
    await expectAbortedAfter(client(await start()), '/busy', 300);
  });

  it("the client's own signal still aborts a request that has its own", async () => {
    const ctrlC = new AbortController();
    const http = client(await start(), ctrlC.signal);
    const pending = http.request({ method: 'GET', path: '/hang', signal: new AbortController().signal });
    setTimeout(() => ctrlC.abort(), 100);
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
  });
});
