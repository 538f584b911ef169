// Rate limiting and injected faults on /api, as the CLI's retry and pacing logic will meet them.
import { afterEach, describe, expect, it } from 'vitest';
import { parseFaultSpec, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { FaultInjector } from '../../src/sandbox/traffic/faults.js';
import { call, codedErrorBody, sandboxForFile } from './client.js';

let sandbox: RunningSandbox;
// The default limit (60 a minute), which some tests change and the next one gets back.
sandboxForFile(
  (running) => {
    sandbox = running;
  },
  { rateLimit: 60 },
);
afterEach(() => {
  sandbox.setFaults(undefined);
  sandbox.setRateLimit(60);
});

const rateHeaders = (headers: Headers) => ({
  limit: headers.get('x-ratelimit-limit'),
  remaining: headers.get('x-ratelimit-remaining'),
  reset: headers.get('x-ratelimit-reset'),
});

describe('rate limiting', () => {
  it('counts down, then answers 429 with Retry-After and the rate headers', async () => {
    sandbox.setRateLimit(3);
    const nowSeconds = Math.floor(Date.now() / 1000);
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await call(sandbox, '/v1/customers?per_page=1');
      expect(result.status).toBe(200);
      remaining.push(rateHeaders(result.headers).remaining);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await call(sandbox, '/v1/customers?per_page=1');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Too Many Attempts.' });
    const headers = rateHeaders(refused.headers);
    expect(headers.limit).toBe('3');
    expect(headers.remaining).toBe('0');
    expect(Number(headers.reset)).toBeGreaterThanOrEqual(nowSeconds + 59);
    expect(Number(headers.reset)).toBeLessThanOrEqual(nowSeconds + 62);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('keeps its own accounting of each window: requests let through and refused', async () => {
    sandbox.setRateLimit(2);
    const before = sandbox.rateWindows().length;
    for (let i = 0; i < 5; i++) await call(sandbox, '/v1/account');
    const opened = sandbox.rateWindows().slice(before);
    expect(opened).toEqual([{ caller: 'user:1', startMs: expect.any(Number), hits: 2, refused: 3 }]);
  });

  it('counts each user apart, and unauthenticated callers by IP', async () => {
    sandbox.setRateLimit(1);
    expect((await call(sandbox, '/v1/account')).status).toBe(200);
    expect((await call(sandbox, '/v1/account')).status).toBe(429);
    const other = await call(sandbox, '/v1/account', { token: sandbox.issueToken({ userId: 3 }) });
    expect(other.status).toBe(200);
    const anonymous = await call(sandbox, '/v1/account', { token: null });
    expect(anonymous.status).toBe(401);
    expect(rateHeaders(anonymous.headers)).toMatchObject({ limit: '1', remaining: '0' });
    expect((await call(sandbox, '/v1/account', { token: null })).status).toBe(429);
  });

  it('puts the headers on error answers too', async () => {
    const result = await call(sandbox, '/v1/customers', { tenant: null });
    expect(result.status).toBe(400);
    expect(rateHeaders(result.headers)).toMatchObject({ limit: '60', remaining: expect.any(String) });
  });

  it('sends no rate headers at all when off', async () => {
    const unlimited = await startSandbox({ port: 0, rateLimit: 0 });
    try {
      for (let i = 0; i < 5; i++) {
        const result = await call(unlimited, '/v1/account');
        expect(result.status).toBe(200);
        expect(rateHeaders(result.headers)).toEqual({ limit: null, remaining: null, reset: null });
      }
    } finally {
      await unlimited.close();
    }
  });
});

describe('faults', () => {
  it('answers 500 SERVER_ERROR or 503 with Retry-After under 5xx=1', async () => {
    sandbox.setFaults('5xx=1');
    const statuses = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const result = await call(sandbox, '/v1/account');
      statuses.add(result.status);
      if (result.status === 500) {
        expect(result.body).toEqual(codedErrorBody('SERVER_ERROR', 'Unexpected server fault.'));
      } else {
        expect(result.status).toBe(503);
        expect(result.headers.get('retry-after')).toBe('1');
      }
    }
    expect([...statuses].sort()).toEqual([500, 503]);
  });

  it('answers 429 with Retry-After: 1 under 429=1, its rate headers saying the same', async () => {
    sandbox.setFaults('429=1');
    const result = await call(sandbox, '/v1/account');
    expect(result.status).toBe(429);
    expect(result.headers.get('retry-after')).toBe('1');
    // "At remaining 0 requests are rejected until reset": nothing left, and the reset a second or so away.
    const headers = rateHeaders(result.headers);
    expect(headers).toMatchObject({ limit: '60', remaining: '0' });
    const untilReset = Number(headers.reset) - Date.now() / 1000;
    expect(untilReset).toBeGreaterThan(0);
    expect(untilReset).toBeLessThanOrEqual(2);
  });

  it('drops the connection under reset=1, and recovers when faults are cleared', async () => {
    sandbox.setFaults('reset=1');
    await expect(call(sandbox, '/v1/account')).rejects.toThrow();
    sandbox.setFaults(undefined);
    expect((await call(sandbox, '/v1/account')).status).toBe(200);
  });

  it('delays answers by 1.5 s under slow=1', async () => {
    sandbox.setFaults('slow=1');
    const started = performance.now();
    const result = await call(sandbox, '/v1/account');
    expect(result.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1400);
  });

  it('never creates anything on a faulted POST', async () => {
    const before = (await call(sandbox, '/v1/customers')).body.meta.total;
    for (const spec of ['5xx=1', '429=1', 'reset=1']) {
      sandbox.setFaults(spec);
      await call(sandbox, '/v1/customers', { json: { first_name: 'Faulty', last_name: 'Post' } }).catch(
        () => undefined,
      );
    }
    sandbox.setFaults(undefined);
    const after = await call(sandbox, '/v1/customers?search=faulty');
    expect(after.body.data).toEqual([]);
    expect((await call(sandbox, '/v1/customers')).body.meta.total).toBe(before);
  });

  it('replays the same fault sequence for the same seed', async () => {
    const statuses = async (running: RunningSandbox) => {
      const seen: number[] = [];
      for (let i = 0; i < 12; i++) seen.push((await call(running, '/v1/account')).status);
      return seen;
    };
    const other = await startSandbox({ port: 0, faults: '5xx=0.5,429=0.2' });
    try {
      sandbox.setFaults('5xx=0.5,429=0.2');
      const mine = await statuses(sandbox);
      expect(mine).toEqual(await statuses(other));
      expect(new Set(mine).size).toBeGreaterThan(1);
    } finally {
      await other.close();
    }
  });

  it('refuses a bad spec with a clear message', async () => {
    expect(() => sandbox.setFaults('boom=1')).toThrow('Unknown fault kind "boom"');
    await expect(startSandbox({ port: 0, faults: '5xx=2' })).rejects.toThrow(
      'Fault probability for "5xx" must be a number from 0 to 1, got "2".',
    );
  });
});

describe('parseFaultSpec', () => {
  it('reads every kind and defaults the rest to 0', () => {
    expect(parseFaultSpec('5xx=0.05, 429=0.05,reset=0.02,slow=0.05')).toEqual({
      '5xx': 0.05,
      '429': 0.05,
      reset: 0.02,
      slow: 0.05,
      lost: 0,
      'ws-drop': 0,
    });
    expect(parseFaultSpec('reset=1,lost=0.5,ws-drop=0.1')).toEqual({
      '5xx': 0,
      '429': 0,
      reset: 1,
      slow: 0,
      lost: 0.5,
      'ws-drop': 0.1,
    });
    expect(parseFaultSpec('')).toEqual({ '5xx': 0, '429': 0, reset: 0, slow: 0, lost: 0, 'ws-drop': 0 });
  });

  it('throws one-line errors on bad entries', () => {
    for (const [spec, message] of [
      ['teapot=0.1', /^Unknown fault kind "teapot"/],
      ['5xx=-0.1', /must be a number from 0 to 1/],
      ['5xx=abc', /must be a number from 0 to 1/],
      ['5xx=', /must be a number from 0 to 1/],
      ['5xx', /expected kind=probability/],
      ['5xx=0.1,5xx=0.2', /given more than once/],
    ] as const) {
      expect(() => parseFaultSpec(spec)).toThrow(message);
      try {
        parseFaultSpec(spec);
      } catch (error) {
        expect((error as Error).message).not.toContain('\n');
      }
    }
  });
});

describe('the ws-drop draw', () => {
  const draws = (injector: FaultInjector, count: number) =>
    Array.from({ length: count }, () => injector.drawRealtimeDrop());

  it('replays for the same seed, and never when ws-drop is off', () => {
    const [first, second] = [new FaultInjector(3), new FaultInjector(3)];
    for (const injector of [first, second]) injector.set(parseFaultSpec('ws-drop=0.5'));
    const sequence = draws(first, 40);
    expect(draws(second, 40)).toEqual(sequence);
    expect(new Set(sequence)).toEqual(new Set([true, false]));
    first.set(parseFaultSpec('5xx=0.5'));
    expect(draws(first, 40)).not.toContain(true);
  });

  it('does not shift the per-request faults', () => {
    const [plain, withDrops] = [new FaultInjector(5), new FaultInjector(5)];
    plain.set(parseFaultSpec('5xx=0.5,ws-drop=0.5'));
    withDrops.set(parseFaultSpec('5xx=0.5,ws-drop=0.5'));
    const outcomes = (injector: FaultInjector, dropDraws: boolean) =>
      Array.from({ length: 30 }, () => {
        if (dropDraws) injector.drawRealtimeDrop();
        return injector.draw().outcome;
      });
    expect(outcomes(withDrops, true)).toEqual(outcomes(plain, false));
  });
});
