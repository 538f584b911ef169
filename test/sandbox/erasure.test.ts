// Data erasure requests: the record shape, the seeded matrix, list filters and sorting, reads and creation.
import { describe, expect, it } from 'vitest';
import { declaredKeys } from '../helpers/declared-keys.js';
import { type RunningSandbox, type TenantFixtures } from '../../src/sandbox/index.js';
import { ERASURE_STATUSES as STATUSES } from '../../src/core/api/erasure-states.js';
import { call, type Json, codedErrorBody, sandboxForFile } from './client.js';

let sandbox: RunningSandbox;
let tenantOne: TenantFixtures;
sandboxForFile(
  (running) => {
    // Frozen: the live requests stay where the seed put them, so lists are stable.
    sandbox = running;
    tenantOne = sandbox.fixtures.tenants[1] as TenantFixtures;
  },
  { erasureStepSeconds: 0 },
);

const allRequests = async (query = '', options = {}): Promise<Json[]> => {
  const result = await call(sandbox, `/v1/data-erasure-requests?per_page=100${query}`, options);
  expect(result.status).toBe(200);
  return result.body.data;
};

describe('the seeded matrix', () => {
  it('has one request per status at fixed ids in every seeded tenant', async () => {
    for (const tenant of [1, 2]) {
      const fixtures = sandbox.fixtures.tenants[tenant] as TenantFixtures;
      for (const [index, status] of STATUSES.entries()) {
        const id = (tenant - 1) * 10 + index + 1;
        expect(fixtures.erasureRequests[status]).toBe(id);
        const result = await call(sandbox, `/v1/data-erasure-requests/${id}`, { tenant });
        expect(result.status).toBe(200);
        expect(result.body.data).toMatchObject({ id, tenant_id: tenant, status });
      }
    }
    expect(sandbox.fixtures.tenants[3]?.erasureRequests.failed).toBe(27);
  });

  it('serializes exactly the fields of the API document, in its order', async () => {
    const { body } = await call(sandbox, `/v1/data-erasure-requests/${tenantOne.erasureRequests.completed}`);
    // Nobody cancelled it: cancelled_by ("required in response: no") is left out rather than null.
    expect(Object.keys(body.data)).toEqual(
      declaredKeys('DataErasureRequest').filter((key) => key !== 'cancelled_by'),
    );
    expect(Object.keys(body.data.customer)).toEqual(declaredKeys('DataErasureRequest', 'customer'));
    // avatar_url is "present only on responses that opt in", and the document names no way to opt in.
    expect(body.data.requested_by).toEqual({ id: 1, name: 'Dana Admin' });
    expect(body.data.certificate_code).toMatch(/^DER-\d{4}-000004$/);
    expect(body.data.execution_report.every((step: Json) => step.status === 'erased')).toBe(true);
    // The completed request's person was erased at the lead stage.
    expect(body.data.customer).toMatchObject({
      is_lead_stage: true,
      first_name: null,
      record_state: { is_read_only: true, reason_code: 'CUSTOMER_ERASED' },
    });
  });

  it('fills each status its own fields', async () => {
    const byStatus: Record<number, Json> = Object.fromEntries((await allRequests()).map((r) => [r.id, r]));
    const get = (status: (typeof STATUSES)[number]) => byStatus[tenantOne.erasureRequests[status]];
    expect(get('pending_verification')).toMatchObject({
      verified_at: null,
      executed_at: null,
      resend_count: 1,
    });
    expect(get('verified').verified_at).not.toBeNull();
    expect(get('verified').customer).toMatchObject({ is_lead_stage: true, lead_id: expect.any(Number) });
    expect(get('processing')).toMatchObject({ executed_at: null, certificate_code: null });
    expect(get('failed').execution_report.at(-1)).toMatchObject({
      status: 'failed',
      message: expect.any(String),
    });
    expect(get('failed').certificate_code).toBeNull();
    expect(get('cancelled')).toMatchObject({
      cancelled_by: { id: 1, name: 'Dana Admin' },
      cancellation_reason: expect.any(String),
      cancelled_at: expect.any(String),
    });
    expect(get('expired').verified_at).toBeNull();
    for (const request of Object.values(byStatus)) {
      expect(request.scope_summary.length).toBeGreaterThan(0);
      expect(request.scope_summary[0]).toEqual({
        resource: 'customer_profile',
        description: expect.any(String),
        records: 1,
      });
    }
  });

  it('masks a lead patient for the viewer but not for the admin', async () => {
    const id = tenantOne.erasureRequests.pending_verification;
    const admin = await call(sandbox, `/v1/data-erasure-requests/${id}`);
    const viewer = await call(sandbox, `/v1/data-erasure-requests/${id}`, {
      token: sandbox.issueToken({ userId: 3 }),
    });
    expect(admin.body.data.customer).toMatchObject({ is_masked: false, is_lead_stage: false });
    expect(admin.body.data.customer.email).toContain('@example.com');
    expect(viewer.body.data.customer).toMatchObject({
      is_masked: true,
      first_name: expect.stringMatching(/\*\*\*$/),
    });
    expect(viewer.body.data.customer.email).toMatch(/^\S\*\*\*@\*\*\*$/);
  });
});

describe('GET /v1/data-erasure-requests', () => {
  it('paginates like every list, newest first by default', async () => {
    const { body } = await call(sandbox, '/v1/data-erasure-requests?per_page=4');
    expect(body.meta).toMatchObject({ total: 10, per_page: 4, last_page: 3, current_page: 1 });
    expect(body.data).toHaveLength(4);
    const created = (await allRequests()).map((r) => r.created_at);
    expect(created).toEqual([...created].sort().reverse());
  });

  it('filters by status', async () => {
    for (const status of STATUSES) {
      const found = await allRequests(`&status=${status}`);
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((r) => r.status === status)).toBe(true);
    }
  });

  it('filters by a created_at window, dates or date-times with offsets', async () => {
    const all = await allRequests();
    const frozen = all.filter((r) => r.id <= 7).sort((a, b) => a.created_at.localeCompare(b.created_at));
    const from = frozen[2].created_at;
    const to = frozen[4].created_at;
    const window = await allRequests(`&created_at_from=${from}&created_at_to=${to}`);
    expect(window.map((r) => r.id).sort()).toEqual(
      frozen
        .slice(2, 5)
        .map((r) => r.id)
        .sort(),
    );
    // A bare date is that day's midnight (UTC) for either bound, as Laravel reads it (date-filters.test.ts).
    const day = from.slice(0, 10);
    const nextDay = new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
    const sameDay = await allRequests(`&created_at_from=${day}&created_at_to=${nextDay}`);
    expect(sameDay.map((r) => r.id)).toContain(frozen[2].id);
    const shifted = encodeURIComponent(`${day}T01:00:00+01:00`);
    const nextShifted = encodeURIComponent(`${nextDay}T01:00:00+01:00`);
    expect(
      (await allRequests(`&created_at_from=${shifted}&created_at_to=${nextShifted}`)).map((r) => r.id),
    ).toContain(frozen[2].id);
  });

  it('sorts by each field in both orders, nulls first ascending', async () => {
    for (const field of ['created_at', 'verified_at', 'executed_at', 'status'] as const) {
      const asc = (await allRequests(`&sort_by=${field}&sort_order=asc`)).map((r) => r[field]);
      const desc = (await allRequests(`&sort_by=${field}&sort_order=desc`)).map((r) => r[field]);
      const nulls = asc.filter((value) => value === null);
      const values = asc.filter((value) => value !== null);
      expect(asc).toEqual([...nulls, ...[...values].sort()]);
      expect(desc).toEqual([...[...values].sort().reverse(), ...nulls]);
    }
  });

  it('answers 422 for each bad filter', async () => {
    const result = await call(
      sandbox,
      '/v1/data-erasure-requests?status=done&created_at_from=yesterday&created_at_to=2026-02-30' +
        '&sort_by=name&sort_order=up&per_page=101',
    );
    expect(result.status).toBe(422);
    expect(Object.keys(result.body.errors).sort()).toEqual([
      'created_at_from',
      'created_at_to',
      'per_page',
      'sort_by',
      'sort_order',
      'status',
    ]);
    expect(result.body.errors.status).toEqual(['The selected status is invalid.']);
    const reversed = await call(
      sandbox,
      '/v1/data-erasure-requests?created_at_from=2026-02-01&created_at_to=2026-01-01',
    );
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors.created_at_to).toEqual([
      'The created at to field must be a date after or equal to created at from.',
    ]);
  });

  it("never lists or reads another tenant's requests", async () => {
    expect((await allRequests()).every((r) => r.tenant_id === 1)).toBe(true);
    const foreign = await call(sandbox, '/v1/data-erasure-requests/11', { tenant: 1 });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(codedErrorBody('RESOURCE_NOT_FOUND', 'Data erasure request not found.'));
    for (const id of ['999', 'abc']) {
      expect((await call(sandbox, `/v1/data-erasure-requests/${id}`)).status).toBe(404);
    }
  });
});

describe('POST /v1/data-erasure-requests', () => {
  it('creates a pending request (201) that lists and reads back', async () => {
    const created = await call(sandbox, '/v1/data-erasure-requests', {
      json: { customer_id: 1, request_reason: ' Asked at the desk ' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      id: 31,
      tenant_id: 1,
      customer_id: 1,
      customer: { id: 1, is_lead_stage: false, is_masked: false },
      requested_by: { id: 1 },
      status: 'pending_verification',
      request_reason: 'Asked at the desk',
      verification_channel: 'email',
      resend_count: 0,
      verified_at: null,
      execution_report: null,
      certificate_code: null,
      state_allows: { resend: true, cancel: true, retry: false, certificate: false },
    });
    expect(created.body.data).not.toHaveProperty('cancelled_by');
    const expires = Date.parse(created.body.data.verification_expires_at);
    expect(expires - Date.parse(created.body.data.created_at)).toBe(48 * 3600 * 1000);
    const read = await call(sandbox, '/v1/data-erasure-requests/31');
    expect(read.body.data).toEqual(created.body.data);
    expect((await call(sandbox, '/v1/data-erasure-requests/31', { tenant: 2 })).status).toBe(404);
  });

  it('answers 409 for a customer with an open request', async () => {
    const again = await call(sandbox, '/v1/data-erasure-requests', { json: { customer_id: 1 } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      success: false,
      error_code: 'ERASURE_REQUEST_OPEN',
      data: { request_id: 31, status: 'pending_verification' },
    });
  });

  it('answers CUSTOMER_ERASED with 422 for an erased customer', async () => {
    const erased = (await call(sandbox, '/v1/customers?per_page=100')).body.data.find(
      (c: Json) => c.record_state.reason_code === 'CUSTOMER_ERASED',
    );
    const result = await call(sandbox, '/v1/data-erasure-requests', { json: { customer_id: erased.id } });
    expect(result.status).toBe(422);
    expect(result.body).toMatchObject({ success: false, error_code: 'CUSTOMER_ERASED', errors: null });
  });

  it('validates the body (422)', async () => {
    const cases: [unknown, Record<string, string[]>][] = [
      [{}, { customer_id: ['The customer id field is required.'] }],
      [{ customer_id: 'x' }, { customer_id: ['The customer id field must be an integer.'] }],
      [{ customer_id: 1.5 }, { customer_id: ['The customer id field must be an integer.'] }],
      [{ customer_id: 99999 }, { customer_id: ['The selected customer id is invalid.'] }],
      [{ customer_id: 41 }, { customer_id: ['The selected customer id is invalid.'] }],
      [
        { customer_id: 2, request_reason: 7 },
        { request_reason: ['The request reason field must be a string.'] },
      ],
      [[1, 2], { customer_id: ['The customer id field is required.'] }],
    ];
    for (const [json, errors] of cases) {
      const result = await call(sandbox, '/v1/data-erasure-requests', { json });
      expect(result.status).toBe(422);
      expect(result.body.errors).toEqual(errors);
    }
    const malformed = await call(sandbox, '/v1/data-erasure-requests', {
      method: 'POST',
      rawBody: '{"customer',
    });
    expect(malformed.status).toBe(400);
  });

  it('takes a lead-stage person too', async () => {
    // With 40 records per tenant, lead-stage people follow the 120 patients; 132 is the unassigned fixture lead's.
    const result = await call(sandbox, '/v1/data-erasure-requests', { json: { customer_id: 132 } });
    expect(result.status).toBe(201);
    expect(result.body.data.customer).toMatchObject({
      is_lead_stage: true,
      lead_id: tenantOne.leads.unassigned,
    });
    expect(result.body.data.scope_summary.map((item: Json) => item.resource)).toContain('lead');
    // A lead-stage person is no patient: absent from the customers endpoint.
    expect((await call(sandbox, '/v1/customers/132')).status).toBe(404);
  });
});

describe('who may see and act', () => {
  it('needs data-erasure-requests:read to list and :write to create', async () => {
    const readOnly = sandbox.issueToken({ userId: 1, scopes: ['data-erasure-requests:read'] });
    expect((await call(sandbox, '/v1/data-erasure-requests', { token: readOnly })).status).toBe(200);
    const write = await call(sandbox, '/v1/data-erasure-requests', {
      token: readOnly,
      json: { customer_id: 2 },
    });
    expect(write).toMatchObject({ status: 403, body: { message: 'Invalid scope(s) provided.' } });
    const noRead = sandbox.issueToken({ userId: 1, scopes: ['customers:read'] });
    expect((await call(sandbox, '/v1/data-erasure-requests', { token: noRead })).status).toBe(403);
  });

  it('lets every role read but only admins act', async () => {
    for (const [userId, tenant] of [
      [2, 1],
      [3, 1],
      [4, 2],
    ] as const) {
      const token = sandbox.issueToken({ userId });
      expect((await call(sandbox, '/v1/data-erasure-requests', { token, tenant })).status).toBe(200);
      const create = await call(sandbox, '/v1/data-erasure-requests', {
        token,
        tenant,
        json: { customer_id: 2 },
      });
      expect(create).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.' } });
      const id = sandbox.fixtures.tenants[tenant]?.erasureRequests.pending_verification;
      const resend = await call(sandbox, `/v1/data-erasure-requests/${id}/resend`, {
        token,
        tenant,
        method: 'POST',
      });
      expect(resend.status).toBe(403);
    }
  });

  it('answers 428 on the tenant whose setup is incomplete', async () => {
    const result = await call(sandbox, '/v1/data-erasure-requests', { tenant: 3 });
    expect(result.status).toBe(428);
    expect(result.body.error_code).toBe('SETUP_REQUIRED');
  });
});
