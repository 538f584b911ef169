// The forwarder against a fake transport and a fake clock: what is retried and how long it waits (1 s doubling to
// 30 s), what is skipped, that every try carries the same id and body and a signature of its own time, and that an
// ending tail stops it at once, in flight or waiting.
import { createHmac } from 'node:crypto';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { waitLine } from '../../../src/cli/countdown.js';
import type { Clock } from '../../../src/core/clock.js';
import { CancelledError } from '../../../src/core/errors.js';
import { NodeTransport, type TransportRequest } from '../../../src/core/http/transport.js';
import { Forwarder, forwardBackoffMs } from '../../../src/core/realtime/forwarder.js';
import { fakeClock } from '../../helpers/fake-clock.js';
import { type FakeAnswer, FakeTransport } from '../../helpers/fake-transport.js';

const URL_ = new URL('http://127.0.0.1:8080/hooks/clinic?source=cli');
const PATH = '/hooks/clinic?source=cli';
const BODY = '{"event":"ChatLogCreated","source":"realtime","data":{"id":7,"conversation_id":2}}';
const ID = 'ChatLogCreated.1.2.7';
const refusedConnection = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

function forwarder(answers: FakeAnswer[], clock: Clock = fakeClock()) {
  const transport = new FakeTransport();
  for (const answer of answers) transport.on('POST', PATH, answer);
  const lines = { accepted: [] as string[], retrying: [] as string[], refused: [] as string[] };
  const sut = new Forwarder({
    transport,
    url: URL_,
    secret: 'whsec_test',
    clock,
    userAgent: 'clinic/test',
    timeoutMs: 5_000,
    accepted: (id, status) => lines.accepted.push(`${id} ${status}`),
    retrying: (wait) => void lines.retrying.push(waitLine(wait)),
    refused: (line) => lines.refused.push(line),
  });
  return { sut, transport, lines, clock };
}

describe('forwardBackoffMs', () => {
  it('is 1 s, doubling, never above 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map(forwardBackoffMs)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    fc.assert(
      fc.property(fc.nat(10_000), (retry) => {
        const wait = forwardBackoffMs(retry);
        expect(wait).toBeGreaterThanOrEqual(1000);
        expect(wait).toBeLessThanOrEqual(30_000);
        expect(forwardBackoffMs(retry + 1)).toBeGreaterThanOrEqual(wait);
      }),
    );
  });
});

describe('Forwarder', () => {
  it('a 2xx delivers at the first try: one POST, JSON, the id and a signature of the body', async () => {
    const { sut, transport, lines } = forwarder([{ status: 204 }]);
    expect(await sut.forward(ID, BODY, new AbortController().signal)).toBe('accepted');
    const [sent] = transport.requests;
    expect(sent).toMatchObject({ method: 'POST', origin: 'http://127.0.0.1:8080', path: PATH, body: BODY });
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers['clinic-event-id']).toBe(ID);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sent?.headers['clinic-signature'] ?? '') ?? [];
    expect(v1).toBe(createHmac('sha256', 'whsec_test').update(`${t}.${BODY}`).digest('hex'));
    expect(lines.accepted).toEqual([`${ID} 204`]);
    transport.verify();
  });

  it.each([
    ['408', { status: 408 }],
    ['429', { status: 429 }],
    ['500', { status: 500 }],
    ['502', { status: 502 }],
    ['503', { status: 503 }],
    ['a redirect (never followed)', { status: 301, headers: { location: 'https://elsewhere.example/' } }],
    ['a refused connection', refusedConnection()],
    ['a reset', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    ['a timeout', Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })],
  ] as [string, FakeAnswer][])('%s is tried again until the endpoint takes it', async (_why, failure) => {
    const { sut, transport, lines, clock } = forwarder([failure, failure, { status: 200 }]);
    expect(await sut.forward(ID, BODY, new AbortController().signal)).toBe('accepted');
    expect(transport.requests).toHaveLength(3);
    expect((clock as ReturnType<typeof fakeClock>).sleeps).toEqual([1000, 2000]);
    expect(lines.retrying).toHaveLength(2);
    expect(lines.refused).toEqual([]);
    transport.verify();
  });

  it('an endpoint down for ten tries: waits 1, 2, 4, 8, 16, then 30 s each; nothing dropped', async () => {
    const down = Array.from({ length: 10 }, () => ({ status: 503 }));
    const { sut, lines, clock } = forwarder([...down, { status: 202 }]);
    expect(await sut.forward(ID, BODY, new AbortController().signal)).toBe('accepted');
    expect((clock as ReturnType<typeof fakeClock>).sleeps).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000, 30000,
    ]);
    expect(lines.retrying[0]).toBe(`${ID}: the endpoint answered 503; trying again in 1s`);
  });

  it('every try sends the same id and body, each signed with its own time', async () => {
    const { sut, transport } = forwarder([{ status: 503 }, { status: 503 }, { status: 200 }]);
    await sut.forward(ID, BODY, new AbortController().signal);
    const times = transport.requests.map((request) => {
      expect(request.headers['clinic-event-id']).toBe(ID);
      expect(request.body).toBe(BODY);
      const [, t, v1] = /^t=(\d+),v1=(.*)$/.exec(request.headers['clinic-signature'] ?? '') ?? [];
      expect(v1).toBe(createHmac('sha256', 'whsec_test').update(`${t}.${BODY}`).digest('hex'));
      return Number(t);
    });
    // The fake clock moved by the waits: 1 s, then 2 s.
    expect(times.map((t) => t - times[0]!)).toEqual([0, 1, 3]);
  });

  it('a Retry-After is waited for, up to 30 s', async () => {
    const { sut, clock } = forwarder([
      { status: 429, headers: { 'retry-after': '7' } },
      { status: 503, headers: { 'retry-after': '3600' } },
      { status: 200 },
    ]);
    await sut.forward(ID, BODY, new AbortController().signal);
    expect((clock as ReturnType<typeof fakeClock>).sleeps).toEqual([7000, 30000]);
  });

  it.each([400, 401, 403, 404, 409, 410, 413, 422])(
    'a %i is the endpoint refusing this event: said and skipped, not tried again',
    async (status) => {
      const { sut, transport, lines } = forwarder([{ status, body: '{"error":"nope"}' }]);
      expect(await sut.forward(ID, BODY, new AbortController().signal)).toBe('refused');
      expect(transport.requests).toHaveLength(1);
      expect(lines.refused).toEqual([
        `http://127.0.0.1:8080/hooks/clinic?source=cli refused ${ID} with HTTP ${status}; skipped (a 4xx other than 408 and 429 is not retried)`,
      ]);
    },
  );

  it('the tail ending while it waits to try again: CancelledError at once, no further POST', async () => {
    const ending = new AbortController();
    let waiting: (() => void) | undefined;
    const clock: Clock = {
      now: () => 1_700_000_000_000,
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          waiting = () => undefined;
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    };
    const { sut, transport } = forwarder([{ status: 503 }], clock);
    const forwarding = sut.forward(ID, BODY, ending.signal);
    await happens(() => waiting !== undefined);
    ending.abort();
    await expect(forwarding).rejects.toBeInstanceOf(CancelledError);
    expect(transport.requests).toHaveLength(1);
  });

  it('the tail ending while a POST is in flight: the POST is abandoned, CancelledError', async () => {
    const ending = new AbortController();
    const transport = {
      requests: 0,
      // Ended as a transport is: by its signal, or through its Cancel (an exchange under a deadline).
      request: (options: TransportRequest) =>
        new Promise<never>((_resolve, reject) => {
          transport.requests++;
          options.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
          options.cancel?.onEnd(reject);
        }),
      close: async () => undefined,
    };
    const sut = new Forwarder({
      transport,
      url: URL_,
      secret: 's',
      clock: fakeClock(),
      userAgent: 'clinic/test',
      timeoutMs: 60_000,
      retrying: () => undefined,
      refused: () => undefined,
    });
    const forwarding = sut.forward(ID, BODY, ending.signal);
    await happens(() => transport.requests === 1);
    ending.abort();
    await expect(forwarding).rejects.toBeInstanceOf(CancelledError);
    expect(transport.requests).toBe(1);
  });
});

async function happens(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !predicate(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!predicate()) throw new Error('never happened');
}

/**
 * An endpoint on 127.0.0.1 speaking raw HTTP, one scripted answer a connection (the last repeats): a hostile or
 * broken endpoint trickling its answer a byte at a time, or sending a page of any size.
 */
async function rawEndpoint(answers: ((socket: Socket) => void)[]) {
  const sockets = new Set<Socket>();
  let posts = 0;
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => {
      const answer = answers[Math.min(posts, answers.length - 1)];
      posts++;
      answer?.(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/hooks`),
    posts: () => posts,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Writes `text` one byte every 20 ms, for as long as the socket lives. */
function trickle(socket: Socket, text: string) {
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed) return clearInterval(timer);
    socket.write(text[at % text.length] ?? 'x');
    at++;
  }, 20);
  socket.on('close', () => clearInterval(timer));
}

const noContent = (socket: Socket) => socket.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n');

describe('Forwarder against a hostile endpoint (a real socket)', () => {
  const timeoutMs = 400;
  let endpoint: Awaited<ReturnType<typeof rawEndpoint>> | undefined;
  const transport = new NodeTransport();
  afterEach(async () => {
    await endpoint?.close();
    endpoint = undefined;
  });
  afterAll(() => transport.close());

  function forwarderTo(url: URL) {
    const lines = { retrying: [] as string[], refused: [] as string[] };
    const sut = new Forwarder({
      transport,
      url,
      secret: 'whsec_test',
      clock: fakeClock(),
      userAgent: 'clinic/test',
      timeoutMs,
      retrying: (wait) => void lines.retrying.push(waitLine(wait)),
      refused: (line) => lines.refused.push(line),
    });
    return { sut, lines };
  }

  it.each([
    [
      'a 500 whose body trickles in, a byte within each idle limit',
      (socket: Socket) => {
        socket.write('HTTP/1.1 500 Internal Server Error\r\nContent-Length: 100000\r\n\r\n');
        trickle(socket, 'x');
      },
      /: the endpoint answered 500; trying again in 1s$/,
    ],
    [
      'headers that trickle in',
      (socket: Socket) => {
        socket.write('HTTP/1.1 200 OK\r\n');
        trickle(socket, 'X-Slow: yes\r\n');
      },
      /: cannot reach http:\/\/127\.0\.0\.1:\d+: timed out \(no complete answer within 0\.4s\)/,
    ],
  ])(
    '%s: the try ends at once or at the deadline, and the event is tried again',
    async (_what, slow, why) => {
      endpoint = await rawEndpoint([slow, noContent]);
      const { sut, lines } = forwarderTo(endpoint.url);
      const started = performance.now();
      expect(await sut.forward(ID, BODY, new AbortController().signal)).toBe('accepted');
      expect(performance.now() - started).toBeLessThan(timeoutMs * 5);
      expect(endpoint.posts()).toBe(2);
      expect(lines.retrying).toEqual([expect.stringMatching(why)]);
    },
  );

  it('a 404 with a page far over 64 KiB is a refusal (skipped), not a failure tried for ever', async () => {
    const page = 'x'.repeat(1024 * 1024);
    endpoint = await rawEndpoint([
      (socket) =>
        socket.end(
          `HTTP/1.1 404 Not Found\r\nContent-Length: ${page.length}\r\nConnection: close\r\n\r\n${page}`,
        ),
    ]);
    const { sut, lines } = forwarderTo(endpoint.url);
    expect(await sut.forward(ID, BODY, new AbortController().signal)).toBe('refused');
    expect(endpoint.posts()).toBe(1);
    expect(lines.refused).toEqual([expect.stringContaining('with HTTP 404; skipped')]);
  });

  it('a 2xx whose body never ends delivers at once: the body is not waited for', async () => {
    endpoint = await rawEndpoint([
      (socket) => {
        socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
        const timer = setInterval(() => !socket.destroyed && socket.write('1\r\nx\r\n'), 5);
        socket.on('close', () => clearInterval(timer));
      },
    ]);
    const { sut, lines } = forwarderTo(endpoint.url);
    expect(await sut.forward(ID, BODY, new AbortController().signal)).toBe('accepted');
    expect(lines.retrying).toEqual([]);
  });
});
