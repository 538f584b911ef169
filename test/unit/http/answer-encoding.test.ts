// The API client asks for uncompressed answers and refuses a compressed one instead of reading it as garbage; a
// request may carry a smaller cap of its own (a channel authorization).
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError } from '../../../src/core/errors.js';
import { toExitCode } from '../../../src/core/exit-codes.js';
import { HttpClient } from '../../../src/core/http/client.js';
import { NodeTransport } from '../../../src/core/http/transport.js';
import { channelAuthorizer } from '../../../src/core/realtime/target.js';
import { fakeClock } from '../../helpers/fake-clock.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function api(answer: (res: ServerResponse) => void, seen: string[] = []) {
  server = createServer((req, res) => {
    seen.push(String(req.headers['accept-encoding']));
    answer(res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new HttpClient({
    baseUrl: `${origin}/api`,
    userAgent: 't',
    transport: new NodeTransport(),
    clock: fakeClock(),
    maxRetries: 2,
  });
  return { client, origin };
}

const gzipped = (status: number, value: unknown) => (res: ServerResponse) =>
  res
    .writeHead(status, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
    .end(gzipSync(JSON.stringify(value)));

describe('a compressed API answer', () => {
  it('is refused with one line naming the server; identity was asked for; not retried', async () => {
    const seen: string[] = [];
    const { client, origin } = await api(gzipped(200, { data: { id: 1 } }), seen);
    const error = await client.request({ method: 'GET', path: '/v1/account' }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe(
      `${origin}/api/v1/account sent a compressed answer (Content-Encoding: gzip), which clinic does not accept: ` +
        'it asks for identity (uncompressed) answers',
    );
    expect(toExitCode(error)).toBe(1);
    expect(seen).toEqual(['identity']);
  });

  it('is refused for an error answer and for a download too', async () => {
    const failing = await api(gzipped(500, { message: 'x' }));
    const error = await failing.client
      .request({ method: 'POST', path: '/v1/account', body: {} })
      .catch((e) => e);
    expect((error as Error).message).toContain('sent a compressed answer');
    server!.close();
    const download = await api(gzipped(200, 'a pdf'));
    const taken: string[] = [];
    const sink = {
      what: 'a PDF',
      take: async () => void taken.push('body'),
      canStartOver: () => true,
      leftOver: () => 'nothing was saved',
    };
    const streamed = await download.client
      .download({ method: 'GET', path: '/v1/account' }, sink)
      .catch((e: unknown) => e);
    expect((streamed as Error).message).toContain('sent a compressed answer');
    expect(taken).toEqual([]);
  });

  it('an odd coding is shown as printable text only', async () => {
    const { client } = await api((res) =>
      res.writeHead(200, { 'content-encoding': 'gzip\u00c2\u009b31m' }).end('{}'),
    );
    const error = await client.request({ method: 'GET', path: '/v1/account' }).catch((e) => e);
    expect((error as Error).message).toContain('(Content-Encoding: gzip??31m)');
  });
});

describe('a channel authorization answer', () => {
  it('larger than 1 MiB is refused', async () => {
    const { client, origin } = await api((res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`{"auth":"${'x'.repeat(2 * 1024 * 1024)}"}`),
    );
    const authorize = channelAuthorizer(client, `${origin}/broadcasting/auth`, '1');
    const error = await authorize('1.1', 'private-chat-log.1').catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain('is larger than 1 MiB; refusing to read it');
  });
});
