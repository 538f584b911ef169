// Erasure actions against state_allows: every status × action, what allowed actions change, the certificate PDF.
import { describe, expect, it } from 'vitest';
import { type RunningSandbox, type TenantFixtures } from '../../src/sandbox/index.js';
import { ERASURE_STATUSES as STATUSES } from '../../src/core/api/erasure-states.js';
import { call, sandboxForFile } from './client.js';
import { expectValidPdf } from './pdf-check.js';

type Status = (typeof STATUSES)[number];
const ACTIONS = ['resend', 'cancel', 'retry', 'certificate'] as const;
type Action = (typeof ACTIONS)[number];

const ALLOWED: Record<Status, Action[]> = {
  pending_verification: ['resend', 'cancel'],
  verified: ['cancel'],
  processing: [],
  completed: ['certificate'],
  expired: [],
  cancelled: [],
  failed: ['retry'],
};

let sandbox: RunningSandbox;
const fixtures = (tenant: number) => sandbox.fixtures.tenants[tenant] as TenantFixtures;
sandboxForFile(
  (running) => {
    sandbox = running;
  },
  { erasureStepSeconds: 0 },
);

function act(id: number, action: Action, tenant = 1) {
  const path = `/v1/data-erasure-requests/${id}/${action}`;
  if (action === 'certificate') return call(sandbox, path, { tenant });
  const json = action === 'cancel' ? { cancellation_reason: 'Asked to stop.' } : {};
  return call(sandbox, path, { tenant, method: 'POST', json });
}

const read = async (id: number, tenant = 1) =>
  (await call(sandbox, `/v1/data-erasure-requests/${id}`, { tenant })).body.data;

describe('state_allows', () => {
  it('matches the documented rule for every status', async () => {
    for (const status of STATUSES) {
      const record = await read(fixtures(1).erasureRequests[status]);
      expect(record.state_allows).toEqual(
        Object.fromEntries(ACTIONS.map((action) => [action, ALLOWED[status].includes(action)])),
      );
    }
  });

  it('answers 409 INVALID_STATE for every action it does not allow, changing nothing', async () => {
    for (const status of STATUSES) {
      const id = fixtures(1).erasureRequests[status];
      for (const action of ACTIONS.filter((candidate) => !ALLOWED[status].includes(candidate))) {
        const before = await read(id);
        const result = await act(id, action);
        expect(result.status, `${action} on ${status}`).toBe(409);
        expect(result.body).toMatchObject({
          success: false,
          error_code: 'INVALID_STATE',
          message: `${action} is not allowed while the request is ${status.replace('_', ' ')}.`,
          data: { status, action, state_allows: before.state_allows },
        });
        expect(await read(id)).toEqual(before);
      }
    }
  });

  it('allows every action it shows (200), on both seeded tenants', async () => {
    const outcomes: [Status, Action, number, string][] = [
      ['pending_verification', 'resend', 1, 'pending_verification'],
      ['pending_verification', 'cancel', 2, 'cancelled'],
      ['verified', 'cancel', 1, 'cancelled'],
      ['failed', 'retry', 1, 'processing'],
    ];
    for (const [status, action, tenant, after] of outcomes) {
      const result = await act(fixtures(tenant).erasureRequests[status], action, tenant);
      expect(result.status, `${action} on ${status}`).toBe(200);
      expect(result.body.success).toBe(true);
      expect(result.body.data.status).toBe(after);
    }
    const certificate = await act(fixtures(1).erasureRequests.completed, 'certificate');
    expect(certificate.status).toBe(200);
  });
});

describe('what the actions change', () => {
  it('resend counts, re-sends and renews the link', async () => {
    // Tenant 2's pending request was cancelled above: use a fresh one.
    const created = await call(sandbox, '/v1/data-erasure-requests', {
      tenant: 2,
      json: { customer_id: 41 },
    });
    expect(created.status).toBe(201);
    const fresh = created.body.data;
    const before = Date.now();
    const result = await act(fresh.id, 'resend', 2);
    expect(result.body.data).toMatchObject({ resend_count: 1, status: 'pending_verification' });
    expect(Date.parse(result.body.data.last_sent_at)).toBeGreaterThanOrEqual(before - 5);
    expect(Date.parse(result.body.data.verification_expires_at)).toBeGreaterThan(before + 47 * 3600 * 1000);
    expect((await act(fresh.id, 'resend', 2)).body.data.resend_count).toBe(2);
  });

  it('cancel records who, when and why, and then allows nothing', async () => {
    const created = await call(sandbox, '/v1/data-erasure-requests', { json: { customer_id: 2 } });
    const id = created.body.data.id;
    const result = await call(sandbox, `/v1/data-erasure-requests/${id}/cancel`, {
      json: { cancellation_reason: '  Patient changed their mind. ' },
    });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      status: 'cancelled',
      cancelled_by: { id: 1, name: 'Dana Admin' },
      cancellation_reason: 'Patient changed their mind.',
      cancelled_at: expect.any(String),
      state_allows: { resend: false, cancel: false, retry: false, certificate: false },
    });
    // A cancelled request no longer blocks a new one for the same customer.
    expect((await call(sandbox, '/v1/data-erasure-requests', { json: { customer_id: 2 } })).status).toBe(201);
  });

  it('cancel needs a reason (422) before anything changes', async () => {
    const id = fixtures(1).erasureRequests.pending_verification;
    for (const json of [
      {},
      { cancellation_reason: '' },
      { cancellation_reason: '   ' },
      { cancellation_reason: 5 },
    ]) {
      const result = await call(sandbox, `/v1/data-erasure-requests/${id}/cancel`, { json });
      expect(result.status).toBe(422);
      expect(Object.keys(result.body.errors)).toEqual(['cancellation_reason']);
    }
    expect((await read(id)).status).toBe('pending_verification');
  });

  it('retry sent the failed run back to processing (above)', async () => {
    const record = await read(fixtures(1).erasureRequests.failed);
    expect(record).toMatchObject({ status: 'processing', executed_at: null, execution_report: null });
    expect(record.state_allows).toEqual({ resend: false, cancel: false, retry: false, certificate: false });
  });

  it('answers 404 for unknown and foreign requests', async () => {
    for (const action of ACTIONS) {
      for (const id of [999, fixtures(2).erasureRequests.completed]) {
        const result = await act(id, action);
        expect(result.status).toBe(404);
        expect(result.body.error_code).toBe('RESOURCE_NOT_FOUND');
      }
    }
  });
});

describe('the certificate', () => {
  it('is a real PDF naming the certificate code', async () => {
    const id = fixtures(1).erasureRequests.completed;
    const code = (await read(id)).certificate_code;
    const result = await call(sandbox, `/v1/data-erasure-requests/${id}/certificate`);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('application/pdf');
    expect(result.headers.get('content-disposition')).toBe(
      `attachment; filename="erasure-certificate-${code}.pdf"`,
    );
    expect(Number(result.headers.get('content-length'))).toBe(result.bytes.length);
    expectValidPdf(result.bytes, [`Data erasure certificate ${code}`, 'Northside Clinic']);
  });

  it('is refused with JSON, never a PDF, when not completed', async () => {
    const result = await call(
      sandbox,
      `/v1/data-erasure-requests/${fixtures(1).erasureRequests.processing}/certificate`,
    );
    expect(result.status).toBe(409);
    expect(result.headers.get('content-type')).toBe('application/json');
  });
});
