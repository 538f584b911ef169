// `clinic sandbox start --latency MS`: every API answer waits that long first, as a round trip across a network
// would. Requests in flight side by side wait side by side (it is distance, not a busy server), and a sandbox
// that closes does not wait for them.
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { call, sandboxForFile } from './client.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';

const LATENCY_MS = 300;

let sandbox: RunningSandbox;
sandboxForFile(
  (running) => {
    sandbox = running;
  },
  { latencyMs: LATENCY_MS },
);

describe('--latency', () => {
  it('makes every API answer, errors too, wait first', async () => {
    for (const path of ['/v1/account', '/v1/customers?per_page=2', '/v1/nowhere']) {
      const started = performance.now();
      const result = await call(sandbox, path);
      expect(result.status).toBe(path === '/v1/nowhere' ? 404 : 200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(LATENCY_MS - 5);
    }
  });

  it('lets requests in flight side by side wait side by side, not one after another', async () => {
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 4 }, () => call(sandbox, '/v1/account')));
    const took = performance.now() - started;
    expect(results.every((result) => result.status === 200)).toBe(true);
    expect(took).toBeGreaterThanOrEqual(LATENCY_MS - 5);
    // One after another they would take four times as long.
    expect(took).toBeLessThan(4 * LATENCY_MS);
  });

  it('is refused when negative, and a closing sandbox does not wait for the answers it holds', async () => {
    await expect(startSandbox({ latencyMs: -1 })).rejects.toThrow(/latencyMs/);
    const slow = await startSandbox({ port: 0, rateLimit: 0, latencyMs: 60_000 });
    const held = call(slow, '/v1/account').catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = performance.now();
    await slow.close();
    expect(performance.now() - closing).toBeLessThan(10_000);
    expect(await held).toBeInstanceOf(Error);
  });
});
