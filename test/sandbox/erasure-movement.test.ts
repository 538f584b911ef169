// Erasure requests on the clock: live ones move a step every erasureStepSeconds, fixtures never, 0 freezes all.
import { afterAll, describe, expect, it } from 'vitest';
import {
  type RunningSandbox,
  type SandboxOptions,
  startSandbox,
  type TenantFixtures,
} from '../../src/sandbox/index.js';
import { type MovableClock, manualClock } from '../helpers/sandbox-clock.js';
import { call, type Json } from './client.js';

const started: RunningSandbox[] = [];
/** Each sandbox's clock: the tests move it forward instead of sleeping. */
const clocks = new Map<RunningSandbox, MovableClock>();
async function sandboxWith(options: SandboxOptions) {
  const clock = manualClock();
  const running = await startSandbox({ port: 0, rateLimit: 0, ...options, clock });
  started.push(running);
  clocks.set(running, clock);
  return running;
}
const advance = (sandbox: RunningSandbox, ms: number) => clocks.get(sandbox)?.advance(ms);
afterAll(async () => {
  await Promise.all(started.map((running) => running.close()));
});

const STEP_SECONDS = 0.2;
const STEP_MS = STEP_SECONDS * 1000;
const statusOf = async (sandbox: RunningSandbox, id: number) =>
  (await call(sandbox, `/v1/data-erasure-requests/${id}`)).body.data;

/** Whether `seen` is `path` with some steps possibly skipped, ending at its end. */
function isInOrder(seen: string[], path: string[]): boolean {
  const positions = seen.map((status) => path.indexOf(status));
  return (
    positions.every((at, index) => at >= 0 && (index === 0 || at > (positions[index - 1] ?? -1))) &&
    seen.at(-1) === path.at(-1)
  );
}

/** Polls until the request reaches `status`, moving sandbox time a quarter step between polls; records each status. */
async function follow(sandbox: RunningSandbox, id: number, status: string, seen: string[], limitMs = 8000) {
  let record: Json;
  for (let elapsed = 0; ; elapsed += STEP_MS / 4) {
    record = await statusOf(sandbox, id);
    if (seen.at(-1) !== record.status) seen.push(record.status);
    if (record.status === status) return record;
    if (elapsed >= limitMs) break;
    advance(sandbox, STEP_MS / 4);
  }
  throw new Error(`request ${id} stuck in ${record.status}; seen ${seen.join(' → ')}`);
}

describe('a request created through the API', () => {
  it('walks pending_verification → verified → processing → completed, one step per erasureStepSeconds', async () => {
    const sandbox = await sandboxWith({ erasureStepSeconds: STEP_SECONDS });
    const created = await call(sandbox, '/v1/data-erasure-requests', { json: { customer_id: 1 } });
    const createdAt = Date.parse(created.body.data.created_at);
    const seen: string[] = [];
    const done = await follow(sandbox, created.body.data.id, 'completed', seen);
    // A slow machine may poll past a step; what it sees is still the path, in order.
    expect(isInOrder(seen, ['pending_verification', 'verified', 'processing', 'completed'])).toBe(true);
    // Each step is stamped with the moment it fell due, not the moment someone looked.
    expect(Date.parse(done.verified_at) - createdAt).toBe(STEP_MS);
    expect(Date.parse(done.executed_at) - createdAt).toBe(3 * STEP_MS);
    expect(done).toMatchObject({
      certificate_code: expect.stringMatching(/^DER-\d{4}-\d{6}$/),
      state_allows: { certificate: true, cancel: false },
      customer: {
        id: 1,
        first_name: null,
        record_state: { is_read_only: true, reason_code: 'CUSTOMER_ERASED' },
      },
    });
    expect(done.execution_report.every((step: Json) => step.status === 'erased')).toBe(true);
    // Completion erased the patient everywhere.
    const customer = (await call(sandbox, '/v1/customers/1')).body.data;
    expect(customer).toMatchObject({
      first_name: null,
      email: null,
      record_state: { reason_code: 'CUSTOMER_ERASED' },
    });
    const again = await call(sandbox, '/v1/data-erasure-requests', { json: { customer_id: 1 } });
    expect(again.body.error_code).toBe('CUSTOMER_ERASED');
  });

  it('fails part way when its reason mentions "fail", and completes after a retry', async () => {
    const sandbox = await sandboxWith({ erasureStepSeconds: STEP_SECONDS });
    const created = await call(sandbox, '/v1/data-erasure-requests', {
      json: { customer_id: 2, request_reason: 'please simulate a failure' },
    });
    const id = created.body.data.id;
    const failed = await follow(sandbox, id, 'failed', []);
    expect(failed.state_allows).toMatchObject({ retry: true });
    expect(failed.execution_report.at(-1).status).toBe('failed');
    expect((await call(sandbox, '/v1/customers/2')).body.data.first_name).not.toBeNull();
    const retried = await call(sandbox, `/v1/data-erasure-requests/${id}/retry`, { method: 'POST' });
    expect(retried.body.data.status).toBe('processing');
    await follow(sandbox, id, 'completed', []);
  });

  it('stops moving once cancelled', async () => {
    const sandbox = await sandboxWith({ erasureStepSeconds: STEP_SECONDS });
    const created = await call(sandbox, '/v1/data-erasure-requests', { json: { customer_id: 4 } });
    const id = created.body.data.id;
    await call(sandbox, `/v1/data-erasure-requests/${id}/cancel`, { json: { cancellation_reason: 'No.' } });
    advance(sandbox, STEP_MS * 4);
    expect((await statusOf(sandbox, id)).status).toBe('cancelled');
  });
});

describe('seeded requests', () => {
  it('moves the three live ones per tenant to completed, failed and expired; the matrix never moves', async () => {
    const sandbox = await sandboxWith({ erasureStepSeconds: STEP_SECONDS });
    const fixtures = sandbox.fixtures.tenants[1] as TenantFixtures;
    const matrixBefore = await Promise.all(
      Object.values(fixtures.erasureRequests).map((id) => statusOf(sandbox, id)),
    );
    const { completes, fails, expires } = fixtures.movingErasureRequests;
    const expired: string[] = [];
    await follow(sandbox, expires, 'expired', expired);
    expect(isInOrder(expired, ['pending_verification', 'expired'])).toBe(true);
    await follow(sandbox, fails, 'failed', []);
    const completed = await follow(sandbox, completes, 'completed', []);
    expect(completed.customer).toMatchObject({
      is_lead_stage: true,
      record_state: { reason_code: 'CUSTOMER_ERASED' },
    });
    const matrixAfter = await Promise.all(
      Object.values(fixtures.erasureRequests).map((id) => statusOf(sandbox, id)),
    );
    expect(matrixAfter).toEqual(matrixBefore);
    // Tenant 2's live ones moved too.
    expect((await call(sandbox, '/v1/data-erasure-requests/20', { tenant: 2 })).body.data.status).toBe(
      'expired',
    );
  });

  it('keeps everything still with erasureStepSeconds 0', async () => {
    const sandbox = await sandboxWith({ erasureStepSeconds: 0 });
    const created = await call(sandbox, '/v1/data-erasure-requests', { json: { customer_id: 1 } });
    advance(sandbox, STEP_MS * 4);
    expect((await statusOf(sandbox, created.body.data.id)).status).toBe('pending_verification');
    const { completes, expires } = (sandbox.fixtures.tenants[1] as TenantFixtures).movingErasureRequests;
    expect((await statusOf(sandbox, completes)).status).toBe('pending_verification');
    expect((await statusOf(sandbox, expires)).status).toBe('pending_verification');
  });

  it('rejects a negative or non-finite step', async () => {
    await expect(startSandbox({ erasureStepSeconds: -1 })).rejects.toThrow(/erasureStepSeconds/);
    await expect(startSandbox({ erasureStepSeconds: Number.NaN })).rejects.toThrow(/erasureStepSeconds/);
  });
});
