// Ctrl-C while a request waits for the shared rate-limit budget's lock (another clinic process holds it): before the
// request is sent, the wait ends and nothing is sent; after its answer came, the answer is kept and only the budget is
// left untaught (a bulk run records every answer it got).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CancelledError } from '../../../src/core/errors.js';
import type { Pacer } from '../../../src/core/http/pacers.js';
import { queueReplies, testClient } from '../../helpers/mock-api.js';

/** A lock wait: settles only when `signal` aborts (rejecting with its reason), as withLock's does. */
const lockWait = <T>(signal?: AbortSignal) =>
  new Promise<T>((_, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

const settle = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => vi.unstubAllGlobals());

describe("a wait for the budget file's lock, ended by Ctrl-C", () => {
  it('a pacer that waits on nothing has no signal linked for it: none made for a request of a long export', async () => {
    let made = 0;
    const Original = AbortController;
    vi.stubGlobal(
      'AbortController',
      class extends Original {
        constructor() {
          super();
          made++;
        }
      },
    );
    const asked: (AbortSignal | undefined)[] = [];
    const pacer: Pacer = { slot: async () => 0, observe: async () => {} };
    const t = testClient({ signal: new Original().signal, pacer });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [{ status: 200, body: { data: [] } }]);
    await t.client.request({ method: 'GET', path: '/v1/customers', signal: new Original().signal });
    expect(made).toBe(0);
    // One that waits gets Ctrl-C's and the request's as one.
    const waiting: Pacer = { slot: async (signal) => (asked.push(signal?.()), 0), observe: async () => {} };
    const u = testClient({ signal: new Original().signal, pacer: waiting });
    queueReplies(u.transport, u.seen, 'GET', '/api/v1/customers', [{ status: 200, body: { data: [] } }]);
    await u.client.request({ method: 'GET', path: '/v1/customers', signal: new Original().signal });
    expect(made).toBe(1);
    expect(asked[0]).toBeInstanceOf(AbortSignal);
  });

  it('before the request leaves: the request is cancelled and never sent', async () => {
    const interrupt = new AbortController();
    const pacer: Pacer = { slot: (signal) => lockWait<number>(signal?.()), observe: async () => {} };
    const t = testClient({ signal: interrupt.signal, pacer });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [{ status: 200, body: { data: [] } }]);
    const request = t.client.request({ method: 'GET', path: '/v1/customers' });
    await settle();
    interrupt.abort(new Error('SIGINT'));
    await expect(request).rejects.toBeInstanceOf(CancelledError);
    expect(t.seen).toEqual([]);
  });

  it('after its answer came: the answer is kept, the budget left untaught', async () => {
    const interrupt = new AbortController();
    let observing = false;
    const pacer: Pacer = {
      slot: async () => 0,
      observe: (_, signal) => ((observing = true), lockWait<void>(signal?.())),
    };
    const t = testClient({ signal: interrupt.signal, pacer });
    queueReplies(t.transport, t.seen, 'POST', '/api/v1/customers', [
      { status: 201, body: { data: { id: 9 } } },
    ]);
    const request = t.client.request({ method: 'POST', path: '/v1/customers', body: { first_name: 'A' } });
    while (!observing) await settle();
    interrupt.abort(new Error('SIGINT'));
    await expect(request).resolves.toMatchObject({ status: 201 });
    expect(t.seen).toHaveLength(1);
  });

  it('a budget that fails for another reason still fails the request', async () => {
    const pacer: Pacer = { slot: async () => 0, observe: async () => Promise.reject(new Error('disk full')) };
    const t = testClient({ signal: new AbortController().signal, pacer });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [{ status: 200, body: { data: [] } }]);
    await expect(t.client.request({ method: 'GET', path: '/v1/customers' })).rejects.toThrow('disk full');
  });
});
