// The forwarder against a fake transport and a fake clock: what is retried and how long it waits (1 s doubling to
// 30 s), what is skipped, that every try carries the same id and body and a signature of its own time, and that an
// ending tail stops it at once, in flight or waiting.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/core/clock.js';
import { CancelledError } from '../../../src/core/errors.js';
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
    retrying: (line) => lines.retrying.push(line),
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
      request: (options: { signal?: AbortSignal }) =>
        new Promise<never>((_resolve, reject) => {
          transport.requests++;
          options.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
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
