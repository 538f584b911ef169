// A handler bug answers 500 SERVER_ERROR without a stack trace, and the server keeps serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHandler } from '../../src/sandbox/api/api-handler.js';
import type { Route } from '../../src/sandbox/api/route.js';
import { TokenStore } from '../../src/sandbox/auth/tokens.js';
import { buildSeedStore } from '../../src/sandbox/data/seed.js';
import { createDispatcher } from '../../src/sandbox/dispatcher.js';
import { type ListeningServer, listen } from '../../src/sandbox/server.js';
import { FaultInjector } from '../../src/sandbox/traffic/faults.js';
import { RateLimiter } from '../../src/sandbox/traffic/rate-limit.js';
import { codedErrorBody } from './client.js';

const brokenRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/v1/boom',
    tenantScoped: false,
    handle: () => {
      throw new Error('secret internals');
    },
  },
  {
    method: 'GET',
    pattern: '/v1/fine',
    tenantScoped: false,
    handle: () => ({ status: 200, body: { ok: true } }),
  },
];

let server: ListeningServer;
let token: string;
let mountCalls = 0;
beforeAll(async () => {
  const store = buildSeedStore({ seed: 1, records: 2 });
  const tokens = new TokenStore((id) => store.user(id) !== undefined, Date.now);
  token = tokens.issue({ userId: 1 });
  const api = createApiHandler({
    store,
    tokens,
    limiter: new RateLimiter(0, Date.now),
    faults: new FaultInjector(1),
    origin: () => '',
    now: Date.now,
    lifetime: new AbortController().signal,
    routes: brokenRoutes,
  });
  const crashing = () => {
    mountCalls++;
    return Promise.reject(new Error('mount bug'));
  };
  const mounts = [
    { prefix: '/api', handle: api },
    { prefix: '/crash', handle: crashing },
  ];
  server = await listen(createDispatcher(mounts, []), '127.0.0.1', 0);
});
afterAll(async () => {
  await server.close();
});

describe('handler failures', () => {
  it('answers 500 SERVER_ERROR without leaking the error, then keeps serving', async () => {
    const headers = { authorization: `Bearer ${token}` };
    const response = await fetch(`http://127.0.0.1:${server.port}/api/v1/boom`, { headers });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual(codedErrorBody('SERVER_ERROR', 'Unexpected server fault.'));
    expect(text).not.toContain('secret');
    const after = await fetch(`http://127.0.0.1:${server.port}/api/v1/fine`, { headers });
    expect(after.status).toBe(200);
  });

  it('answers 500 when a mounted handler itself fails', async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/crash/here`);
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error_code: string }).error_code).toBe('SERVER_ERROR');
    expect(mountCalls).toBe(1);
  });
});
