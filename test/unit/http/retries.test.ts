// HttpClient retries with a fake clock: 429 after Retry-After, 5xx and resets only for idempotent methods.
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../../src/core/errors.js';
import type { Wait } from '../../../src/core/watched-sleep.js';
import { FAKE_START } from '../../helpers/fake-clock.js';
import { queueReplies, type Reply, testClient } from '../../helpers/mock-api.js';

const ok: Reply = { status: 200, body: { data: { id: 1 } } };

function resetError(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

describe('429 is retried for every method after Retry-After', () => {
  it('POST waits Retry-After: 3 seconds (3000 ms) and succeeds', async () => {
    const t = testClient();
    queueReplies(t.transport, t.seen, 'POST', '/api/v1/customers', [
      { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'retry-after': '3' } },
      { status: 201, body: { data: { id: 5 } } },
    ]);
    const answer = await t.client.request({
      method: 'POST',
      path: '/v1/customers',
      body: { first_name: 'Ada' },
    });
    expect(answer.status).toBe(201);
    expect(t.clock.sleeps).toEqual([3000]);
    expect(t.seen).toHaveLength(2);
    expect(t.seen[1]?.body).toBe('{"first_name":"Ada"}');
    t.transport.verify();
  });

  it('honours Retry-After given as an HTTP date', async () => {
    const t = testClient();
    const retryAt = new Date(FAKE_START + 7000).toUTCString();
    queueReplies(t.transport, t.seen, 'POST', '/api/v1/customers', [
      { status: 429, body: { message: 'slow down' }, headers: { 'retry-after': retryAt } },
      { status: 201, body: { data: { id: 5 } } },
    ]);
    await t.client.request({ method: 'POST', path: '/v1/customers', body: {} });
    expect(t.clock.sleeps).toEqual([7000]);
    t.transport.verify();
  });

  it('uses backoff when a 429 carries no Retry-After', async () => {
    const t = testClient();
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [{ status: 429 }, { status: 429 }, ok]);
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(t.clock.sleeps).toEqual([1000, 2000]);
  });

  it('gives up after maxRetries with ApiError 429 carrying the wait', async () => {
    const t = testClient({ maxRetries: 2 });
    const limited: Reply = {
      status: 429,
      body: { message: 'Too Many Attempts.' },
      headers: { 'retry-after': '5' },
    };
    queueReplies(t.transport, t.seen, 'POST', '/api/v1/customers', [limited, limited, limited]);
    const error = await t.client.request({ method: 'POST', path: '/v1/customers', body: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds).toBe(5);
    expect(t.seen).toHaveLength(3);
    expect(t.clock.sleeps).toEqual([5000, 5000]);
  });
});

describe('5xx retries', () => {
  it.each(['GET', 'PUT', 'DELETE'])(
    '%s: 503, 500, 502, 504 backed off 1, 2, 4, 8 s, then fails after maxRetries=4 (5 requests)',
    async (method) => {
      const t = testClient({ maxRetries: 4 });
      queueReplies(t.transport, t.seen, method, '/api/v1/customers/1', [
        { status: 503 },
        { status: 500 },
        { status: 502 },
        { status: 504 },
        { status: 503, body: { message: 'Service Unavailable' } },
      ]);
      const error = await t.client
        .request({ method, path: '/v1/customers/1', body: method === 'PUT' ? { a: 1 } : undefined })
        .catch((e) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(503);
      expect(t.seen).toHaveLength(5);
      expect(t.clock.sleeps).toEqual([1000, 2000, 4000, 8000]);
      t.transport.verify();
    },
  );

  it('GET succeeds when a later attempt succeeds', async () => {
    const t = testClient();
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers/1', [{ status: 502 }, { status: 500 }, ok]);
    const answer = await t.client.request({ method: 'GET', path: '/v1/customers/1' });
    expect(answer.json()).toEqual({ data: { id: 1 } });
    expect(t.clock.sleeps).toEqual([1000, 2000]);
  });

  it('a 503 with Retry-After waits that long instead of the backoff', async () => {
    const t = testClient();
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [
      { status: 503, headers: { 'retry-after': '20' } },
      ok,
    ]);
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(t.clock.sleeps).toEqual([20_000]);
  });

  it.each(['POST', 'PATCH'])('%s with 500 is not retried: exactly one request', async (method) => {
    const t = testClient();
    queueReplies(t.transport, t.seen, method, '/api/v1/customers', [
      { status: 500, body: { message: 'Server Error' } },
      ok,
    ]);
    const error = await t.client.request({ method, path: '/v1/customers', body: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(500);
    expect(t.seen).toHaveLength(1);
    expect(t.clock.sleeps).toEqual([]);
  });

  it.each([400, 404, 409, 422])('%i is never retried', async (status) => {
    const t = testClient();
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [{ status, body: { message: 'no' } }, ok]);
    await expect(t.client.request({ method: 'GET', path: '/v1/customers' })).rejects.toMatchObject({
      status,
    });
    expect(t.seen).toHaveLength(1);
  });

  it('maxRetries: 0 turns retries off (503 on GET, 429 on POST)', async () => {
    const t = testClient({ maxRetries: 0 });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [{ status: 503 }, ok]);
    queueReplies(t.transport, t.seen, 'POST', '/api/v1/customers', [
      { status: 429, headers: { 'retry-after': '1' } },
      ok,
    ]);
    await expect(t.client.request({ method: 'GET', path: '/v1/customers' })).rejects.toMatchObject({
      status: 503,
    });
    await expect(t.client.request({ method: 'POST', path: '/v1/customers', body: {} })).rejects.toMatchObject(
      {
        status: 429,
      },
    );
    expect(t.seen).toHaveLength(2);
    expect(t.clock.sleeps).toEqual([]);
  });
});

describe('a POST marked repeatable (a channel authorization) is retried like a GET', () => {
  it('after a 500 and a reset it is sent again and succeeds', async () => {
    const t = testClient();
    queueReplies(t.transport, t.seen, 'POST', '/api/broadcasting/auth', [{ status: 500 }]);
    t.transport.on('POST', '/api/broadcasting/auth', resetError());
    queueReplies(t.transport, t.seen, 'POST', '/api/broadcasting/auth', [
      { status: 200, body: { auth: 'k:sig' } },
    ]);
    const request = {
      method: 'POST',
      path: '/broadcasting/auth',
      body: { socket_id: '1.2' },
      repeatable: true,
    };
    const answer = await t.client.request(request);
    expect(answer.json()).toEqual({ auth: 'k:sig' });
    expect(t.clock.sleeps).toEqual([1000, 2000]);
    t.transport.verify();
  });
});

describe('connection resets', () => {
  it('GET is retried after a reset and succeeds', async () => {
    const t = testClient();
    t.transport.on('GET', '/api/v1/customers', resetError());
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [ok]);
    const answer = await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(answer.status).toBe(200);
    expect(t.clock.sleeps).toEqual([1000]);
    t.transport.verify();
  });

  it('GET fails with NetworkError after maxRetries resets', async () => {
    const t = testClient({ maxRetries: 2 });
    t.transport.on('GET', '/api/v1/customers', resetError(), { times: 3 });
    const error = await t.client.request({ method: 'GET', path: '/v1/customers' }).catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain('connection reset');
    expect(error.message).not.toContain('may have been processed');
    expect(t.clock.sleeps).toEqual([1000, 2000]);
  });

  it('POST is not retried after a reset, and the error warns that it may have been processed', async () => {
    const t = testClient();
    t.transport.on('POST', '/api/v1/customers', resetError());
    queueReplies(t.transport, t.seen, 'POST', '/api/v1/customers', [ok]);
    const error = await t.client.request({ method: 'POST', path: '/v1/customers', body: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain('https://api.clinic.test');
    expect(error.message).toContain('may have been processed');
    expect(t.seen).toHaveLength(0);
    expect(t.clock.sleeps).toEqual([]);
  });

  it('a refused connection on POST does not claim the request may have been processed', async () => {
    const t = testClient();
    t.transport.on(
      'POST',
      '/api/v1/customers',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    );
    const error = await t.client.request({ method: 'POST', path: '/v1/customers', body: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain('connection refused');
    expect(error.message).not.toContain('may have been processed');
  });

  it('maxRetries: 0 does not retry a reset on GET', async () => {
    const t = testClient({ maxRetries: 0 });
    t.transport.on('GET', '/api/v1/customers', resetError());
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [ok]);
    await expect(t.client.request({ method: 'GET', path: '/v1/customers' })).rejects.toBeInstanceOf(
      NetworkError,
    );
    expect(t.seen).toHaveLength(0);
  });
});

describe('waits told', () => {
  it('tells each retry wait as facts: how long, why, which retry', async () => {
    const waits: Wait[] = [];
    const t = testClient({ onWait: (wait) => void waits.push(wait) });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [{ status: 503 }, ok]);
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(waits).toEqual([{ kind: 'retry', ms: 1000, reason: 'HTTP 503', retry: 1, of: 4 }]);
    expect(t.clock.sleeps).toEqual([1000]); // no watcher asked for the time left: one sleep
  });
});

describe('a rate-limit window too long to wait for', () => {
  it('is waited for 120 s at most, no request meanwhile; a 429 then says how long (exit 9 past 120 s)', async () => {
    const t = testClient();
    const resetS = Math.ceil(FAKE_START / 1000) + 300;
    const spent = {
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(resetS),
    };
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [
      { status: 200, body: { data: [] }, headers: spent },
      { status: 429, body: {}, headers: { ...spent, 'retry-after': '300' } },
    ]);
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    const error = await t.client.request({ method: 'GET', path: '/v1/customers' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).exitCode).toBe(9);
    expect((error as ApiError).retryAfterSeconds).toBe(300);
    expect(t.seen).toHaveLength(2);
    expect(t.clock.sleeps).toEqual([120_000]);
  });
});
