// `clinic sandbox start --latency MS`: every API answer waits that long first, as a round trip across a network
// would. Requests in flight side by side wait side by side (it is distance, not a busy server), many at once raise
// no warning, and a sandbox that closes neither waits for the answers it holds nor leaves their timers behind.
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { call, sandboxForFile } from './client.js';

const LATENCY_MS = 500;

let sandbox: RunningSandbox;
sandboxForFile(
  (running) => {
    sandbox = running;
  },
  { latencyMs: LATENCY_MS },
);

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('--latency', () => {
  it('makes every API answer, errors too, wait first', async () => {
    for (const path of ['/v1/account', '/v1/customers?per_page=2', '/v1/nowhere']) {
      const started = performance.now();
      const result = await call(sandbox, path);
      expect(result.status).toBe(path === '/v1/nowhere' ? 404 : 200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(LATENCY_MS - 5);
    }
  });

  it('lets requests in flight wait side by side, not one after another, and many at once warn of nothing', async () => {
    process.on('warning', onWarning);
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 16 }, () => call(sandbox, '/v1/account')));
    const took = performance.now() - started;
    expect(results.every((result) => result.status === 200)).toBe(true);
    expect(took).toBeGreaterThanOrEqual(LATENCY_MS - 5);
    // Two at a time would already take twice as long.
    expect(took).toBeLessThan(2 * LATENCY_MS);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((warning) => warning.name)).toEqual([]);
  });

  it('refuses what is no round trip: negative, fractional, or over a minute', async () => {
    for (const latencyMs of [-1, 1.5, 60_001])
      await expect(startSandbox({ latencyMs })).rejects.toThrow(/latencyMs/);
  });

  it('closing, does not wait for the answers it holds, and leaves no timer of theirs behind', async () => {
    const before = timers();
    const slow = await startSandbox({ port: 0, rateLimit: 0, latencyMs: 60_000 });
    const held = call(slow, '/v1/account').catch((error: unknown) => error);
    while (!slow.requests.some((request) => request.path === '/api/v1/account'))
      await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 50)); // into the handler's wait
    expect(timers()).toBeGreaterThan(before);
    const closing = performance.now();
    await slow.close();
    expect(performance.now() - closing).toBeLessThan(10_000);
    expect(await held).toBeInstanceOf(Error);
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
