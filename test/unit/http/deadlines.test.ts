// A slow or endless answer never hangs the CLI: a deadline for the whole exchange, a cap on JSON bodies, and no
// waiting for a Retry-After of days.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { NodeTransport } from '../../../src/core/http/transport.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../../src/core/errors.js';
import { HttpClient } from '../../../src/core/http/client.js';
import { toExitCode } from '../../../src/core/exit-codes.js';
import { fakeClock } from '../../helpers/fake-clock.js';
import { queueReplies, testClient } from '../../helpers/mock-api.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A real server whose answer trickles one byte every 100 ms, for ever. */
async function tricklingServer(): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => res.write(' '), 100);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/api`;
}

/** A client over node:http to `baseUrl`, no retries, a request deadline of 0.7 s. */
const realClient = (baseUrl: string) =>
  new HttpClient({
    baseUrl,
    userAgent: 't',
    transport: new NodeTransport(),
    clock: fakeClock(),
    maxRetries: 0,
    timeoutMs: 700,
  });

describe('deadlines and caps', () => {
  it('a body that trickles for ever fails at the request deadline', async () => {
    const client = realClient(await tricklingServer());
    const started = Date.now();
    const error = await client.request({ method: 'GET', path: '/v1/account' }).catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain('no complete answer within 0.7s');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a download whose server answers '102 Processing' for ever, never a head, fails at the request deadline", async () => {
    // Each interim answer is something on the wire: a wait that only silence ends never ends.
    const sockets: Socket[] = [];
    const raw = createNetServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
      const timer = setInterval(() => socket.write('HTTP/1.1 102 Processing\r\n\r\n'), 100);
      socket.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const client = realClient(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/api`);
      const started = Date.now();
      const sink = {
        what: 'AI report 1',
        take: async () => undefined,
        canStartOver: () => true,
        leftOver: () => '',
      };
      const error = await client.download({ method: 'GET', path: '/v1/account' }, sink).catch((e) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect(error.message).toContain('no complete answer within 0.7s');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('a JSON answer over the cap is refused, not read whole', async () => {
    const { client, transport } = testClient({ maxBodyBytes: 1024 });
    queueReplies(transport, [], 'GET', '/api/v1/account', [{ status: 200, body: 'x'.repeat(4096) }]);
    const error = await client.request({ method: 'GET', path: '/v1/account' }).catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/larger than .* MiB; refusing to read it/);
    expect(toExitCode(error)).toBe(1);
  });

  it('a Retry-After of days is not waited for: exit 9 at once', async () => {
    const { client, transport, clock } = testClient();
    queueReplies(transport, [], 'GET', '/api/v1/account', [
      { status: 503, body: { message: 'Maintenance' }, headers: { 'retry-after': '999999' } },
    ]);
    const error = await client.request({ method: 'GET', path: '/v1/account' }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.retryAfterSeconds).toBe(999999);
    expect(toExitCode(error)).toBe(9);
    expect(clock.sleeps).toEqual([]); // no wait at all
  });
});
