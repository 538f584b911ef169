// HttpClient: pacing on X-RateLimit-*, 401 renewal, X-Tenant rules, User-Agent, redacted debug trace.
import { describe, expect, it } from 'vitest';
import { ApiError, CancelledError, UsageError } from '../../../src/core/errors.js';
import { isTenantScoped, nestedDeeperThan } from '../../../src/core/http/client.js';
import { FAKE_START, type FakeClock, fakeClock } from '../../helpers/fake-clock.js';
import { fakeReply, queueReplies, type Reply, testClient, type TestClient } from '../../helpers/mock-api.js';

const ok: Reply = { status: 200, body: { data: [] } };

/** Routes that also note the fake time at which each request arrived. */
function timedReplies(
  t: Pick<TestClient, 'transport' | 'clock'>,
  arrivals: number[],
  replies: Reply[],
): void {
  for (const reply of replies) {
    t.transport.on('GET', /^\/api\/v1\/customers/, () => {
      arrivals.push(t.clock.now());
      return fakeReply({ ...reply, body: reply.body ?? {} });
    });
  }
}

describe('rate-limit pacing', () => {
  it('after X-RateLimit-Remaining: 0, the next request waits ~30 s for the reset before it is sent', async () => {
    const t = testClient();
    const arrivals: number[] = [];
    const resetAt = Math.floor(FAKE_START / 1000) + 30;
    timedReplies(t, arrivals, [
      {
        status: 200,
        body: { data: [] },
        headers: {
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(resetAt),
          date: new Date(FAKE_START).toUTCString(),
        },
      },
      ok,
    ]);
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(t.clock.sleeps).toEqual([]);
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(t.clock.sleeps).toHaveLength(1);
    expect(t.clock.sleeps[0]).toBeGreaterThanOrEqual(30_000);
    expect(t.clock.sleeps[0]).toBeLessThanOrEqual(31_000);
    expect(arrivals[0]).toBe(FAKE_START);
    expect(arrivals[1]).toBeGreaterThanOrEqual(resetAt * 1000);
    t.transport.verify();
  });

  it('corrects for a server clock that is behind ours (uses the Date header)', async () => {
    const t = testClient();
    const serverNow = FAKE_START - 10_000;
    timedReplies(
      t,
      [],
      [
        {
          status: 200,
          headers: {
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(serverNow / 1000 + 30),
            date: new Date(serverNow).toUTCString(),
          },
        },
        ok,
      ],
    );
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(t.clock.sleeps).toHaveLength(1);
    expect(t.clock.sleeps[0]).toBeGreaterThanOrEqual(30_000);
    expect(t.clock.sleeps[0]).toBeLessThanOrEqual(31_000);
  });

  it('does not wait while requests remain in the window', async () => {
    const t = testClient();
    const headers = {
      'x-ratelimit-remaining': '5',
      'x-ratelimit-reset': String(FAKE_START / 1000 + 30),
      date: new Date(FAKE_START).toUTCString(),
    };
    timedReplies(t, [], [{ status: 200, headers }, { status: 200, headers }, ok]);
    for (let i = 0; i < 3; i++) await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(t.clock.sleeps).toEqual([]);
  });

  it('answers without rate headers cause no waits', async () => {
    const t = testClient();
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [ok, ok, ok]);
    for (let i = 0; i < 3; i++) await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(t.clock.sleeps).toEqual([]);
    expect(t.seen).toHaveLength(3);
  });

  it('a reset already in the past causes no wait', async () => {
    const t = testClient();
    timedReplies(
      t,
      [],
      [
        {
          status: 200,
          headers: {
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(FAKE_START / 1000 - 5),
            date: new Date(FAKE_START).toUTCString(),
          },
        },
        ok,
      ],
    );
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(t.clock.sleeps).toEqual([]);
  });
});

describe('401 and token renewal', () => {
  function tokens(renewResult: boolean) {
    let current = 'tok-A';
    const renewCalls: string[] = [];
    return {
      renewCalls,
      source: {
        accessToken: async () => current,
        renewAfterRejection: async (rejected: string) => {
          renewCalls.push(rejected);
          if (renewResult) current = 'tok-B';
          return renewResult;
        },
      },
    };
  }

  const rejected: Reply = { status: 401, body: { message: 'Unauthenticated.' } };

  /** A client whose token source can renew (or not), its customers list answering `replies` in turn. */
  function answering(renews: boolean, replies: Reply[]) {
    const tk = tokens(renews);
    const t = testClient({ tokens: tk.source });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', replies);
    const list = () => t.client.request({ method: 'GET', path: '/v1/customers' });
    return { ...t, renewCalls: tk.renewCalls, list };
  }

  it('renews once and retries with the new token when renewal succeeds', async () => {
    const t = answering(true, [rejected, ok]);
    const answer = await t.list();
    expect(answer.status).toBe(200);
    expect(t.renewCalls).toEqual(['tok-A']);
    expect(t.seen.map((r) => r.headers.authorization)).toEqual(['Bearer tok-A', 'Bearer tok-B']);
    expect(t.clock.sleeps).toEqual([]);
  });

  it('renews at most once: a second 401 is thrown', async () => {
    const t = answering(true, [rejected, rejected, ok]);
    const error = await t.list().catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    expect(t.renewCalls).toHaveLength(1);
    expect(t.seen).toHaveLength(2);
  });

  it('throws ApiError 401 without retrying when renewal is not possible', async () => {
    const t = answering(false, [rejected, ok]);
    const error = await t.list().catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    expect(error.message).toBe('Unauthenticated.');
    expect(t.renewCalls).toEqual(['tok-A']);
    expect(t.seen).toHaveLength(1);
  });

  it('sends no Authorization header without a token source', async () => {
    const t = testClient({ tokens: undefined });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [ok]);
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(t.seen[0]?.headers.authorization).toBeUndefined();
  });
});

describe('X-Tenant', () => {
  it('is sent on /v1/customers', async () => {
    const t = testClient({ tenant: '42' });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers/3', [ok]);
    await t.client.request({ method: 'GET', path: '/v1/customers/3' });
    expect(t.seen[0]?.headers['x-tenant']).toBe('42');
  });

  it('is never sent on /v1/account, even with a tenant configured', async () => {
    const t = testClient({ tenant: '42' });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/account', [{ status: 200, body: { data: { id: 1 } } }]);
    await t.client.request({ method: 'GET', path: '/v1/account' });
    expect(t.seen[0]?.headers).not.toHaveProperty('x-tenant');
  });

  it('a tenant-scoped path without a tenant throws UsageError and sends nothing', async () => {
    const t = testClient({ tenant: undefined });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [ok]);
    const error = await t.client.request({ method: 'GET', path: '/v1/customers' }).catch((e) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain('--tenant');
    expect(t.seen).toHaveLength(0);
    expect(t.transport.pending()).toHaveLength(1);
  });

  it('/v1/account works without a tenant', async () => {
    const t = testClient({ tenant: undefined });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/account', [ok]);
    await expect(t.client.request({ method: 'GET', path: '/v1/account' })).resolves.toMatchObject({
      status: 200,
    });
  });

  it('isTenantScoped: every /v1 path except the account', () => {
    expect(isTenantScoped('/v1/customers')).toBe(true);
    expect(isTenantScoped('/v1/customers?page=2')).toBe(true);
    expect(isTenantScoped('/v1/account')).toBe(false);
    expect(isTenantScoped('/v1/account/')).toBe(false);
    expect(isTenantScoped('/v1/account-transaction-types')).toBe(true);
    expect(isTenantScoped('/oauth/token')).toBe(false);
  });
});

describe('request shape', () => {
  it('sends User-Agent, Accept, and a JSON body with its content type', async () => {
    const t = testClient({ userAgent: 'clinic/9.9.9' });
    queueReplies(t.transport, t.seen, 'POST', '/api/v1/customers', [
      { status: 201, body: { data: { id: 1 } } },
    ]);
    await t.client.request({ method: 'post', path: '/v1/customers', body: { first_name: 'Ada' } });
    const sent = t.seen[0];
    expect(sent?.method).toBe('POST');
    expect(sent?.headers['user-agent']).toBe('clinic/9.9.9');
    expect(sent?.headers.accept).toBe('application/json');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.body).toBe('{"first_name":"Ada"}');
  });

  it('joins base URL and path and appends the query', () => {
    const t = testClient({ baseUrl: 'https://api.clinic.test/api/' });
    const prepared = t.client.prepare({
      method: 'GET',
      path: 'v1/customers',
      query: { page: 2, search: 'a b', skip: undefined },
    });
    expect(prepared.url).toBe('https://api.clinic.test/api/v1/customers?page=2&search=a+b');
  });
});

describe('debug trace', () => {
  it('never contains the bearer token, and redacts secret query values and body fields', async () => {
    const trace: string[] = [];
    const secret = 'eyJhbGciOi.secret-token-value.sig';
    const t = testClient({
      trace: (line) => trace.push(line),
      tokens: { accessToken: async () => secret, renewAfterRejection: async () => false },
    });
    t.transport.on(
      'POST',
      (p) => p.startsWith('/api/v1/customers'),
      fakeReply({
        status: 201,
        body: { data: { id: 1 } },
        headers: { 'set-cookie': 'session=abc123', 'x-ratelimit-remaining': '59' },
      }),
    );
    await t.client.request({
      method: 'POST',
      path: '/v1/customers',
      query: { access_token: 'query-secret' },
      body: { first_name: 'Ada', password: 'hunter2' },
    });
    const text = trace.join('\n');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('query-secret');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('abc123');
    expect(text).toContain('authorization: Bearer ***');
    expect(text).toContain('> POST https://api.clinic.test/api/v1/customers');
    expect(text).toContain('"first_name":"Ada"');
    expect(text).toMatch(/< 201 \(\d+ ms\)/);
  });
});

describe('cancellation', () => {
  it('Ctrl-C during a retry wait ends with CancelledError and sends nothing more', async () => {
    const controller = new AbortController();
    const clock = fakeClock();
    const sleeps: number[] = [];
    const t = testClient({
      signal: controller.signal,
      clock: {
        ...clock,
        now: clock.now,
        sleep: async (ms: number) => {
          sleeps.push(ms);
          controller.abort();
          throw new Error('aborted');
        },
      } as FakeClock,
    });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [{ status: 503 }, ok]);
    const error = await t.client.request({ method: 'GET', path: '/v1/customers' }).catch((e) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(sleeps).toEqual([1000]);
    expect(t.seen).toHaveLength(1);
  });
});

describe('objects and arrays in an answer', () => {
  it('an answer of a million tiny objects (a few MiB, gigabytes once parsed) is refused before it is parsed', async () => {
    const t = testClient();
    const flood = `{"data":[${'{},'.repeat(1_000_001)}{}]}`;
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [{ status: 200, body: flood }]);
    const answer = await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(() => answer.json()).toThrow(/the answer holds more than 1,000,000 objects and arrays/);
  });

  it('an honest large answer (long texts, few containers) is read', async () => {
    const t = testClient();
    const notes = Array.from({ length: 100 }, (_, id) => ({
      id,
      notes: 'x'.repeat(50_000),
      tags: ['[', '{'],
    }));
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [{ status: 200, body: { data: notes } }]);
    const answer = await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect((answer.json() as { data: unknown[] }).data).toHaveLength(100);
  });
});

describe('nesting depth of an answer', () => {
  /** `depth` arrays, one inside the other, around a number. */
  const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`) as unknown;

  it('counts containers, not values: the limit itself passes, one more does not', () => {
    expect(nestedDeeperThan(1, 0)).toBe(false);
    expect(nestedDeeperThan(nested(3), 3)).toBe(false);
    expect(nestedDeeperThan(nested(4), 3)).toBe(true);
    expect(nestedDeeperThan({ a: [{ b: { c: 1 } }] }, 4)).toBe(false);
    expect(nestedDeeperThan({ a: [{ b: { c: [] } }] }, 4)).toBe(true);
  });

  it('finds the one deep branch among wide shallow ones, objects and arrays alike', () => {
    const wide = { records: Array.from({ length: 1000 }, (_, id) => ({ id, tags: ['a'], meta: { x: 1 } })) };
    expect(nestedDeeperThan(wide, 4)).toBe(false);
    wide.records[777]!.meta = { x: { y: { z: 1 } } } as never;
    expect(nestedDeeperThan(wide, 4)).toBe(true);
  });

  it('looks inside a key named __proto__ as inside any other (JSON.parse makes it an own property)', () => {
    expect(nestedDeeperThan(JSON.parse('{"__proto__": [[[1]]]}'), 3)).toBe(true);
    expect(nestedDeeperThan(JSON.parse('{"__proto__": [[1]]}'), 3)).toBe(false);
  });

  it('walks 100,000 levels without running out of stack', () => {
    expect(nestedDeeperThan(nested(100_000), 512)).toBe(true);
    expect(nestedDeeperThan(nested(512), 512)).toBe(false);
  });
});
