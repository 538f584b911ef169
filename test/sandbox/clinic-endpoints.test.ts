// Appointments, channels, transaction types, form templates, announcements, AI report PDFs and stock deduction.
import { describe, expect, it } from 'vitest';
import { declaredKeys } from '../helpers/declared-keys.js';
import { type RunningSandbox, type TenantFixtures } from '../../src/sandbox/index.js';
import { call, codedErrorBody, type Json, legacyErrorBody, sandboxForFile } from './client.js';
import { expectValidPdf } from './pdf-check.js';

let sandbox: RunningSandbox;
let tenantOne: TenantFixtures;
sandboxForFile((running) => {
  sandbox = running;
  tenantOne = sandbox.fixtures.tenants[1] as TenantFixtures;
});

const coded404 = (message: string) => codedErrorBody('RESOURCE_NOT_FOUND', message);

describe('GET /v1/appointments', () => {
  it('lists appointments soonest first with their customer', async () => {
    const { status, body } = await call(sandbox, '/v1/appointments?per_page=100');
    expect(status).toBe(200);
    expect(body.meta.total).toBe(12);
    expect(body.data.map((a: Json) => a.id).sort((x: number, y: number) => x - y)).toEqual(
      tenantOne.appointments,
    );
    const starts = body.data.map((a: Json) => a.starts_at);
    expect(starts).toEqual([...starts].sort());
    expect(Object.keys(body.data[0])).toEqual([
      'id',
      'tenant_id',
      'customer_id',
      'customer',
      'user_id',
      'title',
      'status',
      'starts_at',
      'ends_at',
      'notes',
      'created_at',
      'updated_at',
    ]);
    expect(body.data[0].customer).toMatchObject({ id: body.data[0].customer_id, is_lead_stage: false });
    expect(new Set(body.data.map((a: Json) => a.status))).toEqual(
      new Set(['scheduled', 'completed', 'cancelled', 'no_show']),
    );
  });

  it('masks lead patients for the viewer', async () => {
    const viewer = sandbox.issueToken({ userId: 3 });
    const { body } = await call(sandbox, '/v1/appointments?per_page=100', { token: viewer });
    expect(body.data.some((a: Json) => a.customer?.is_masked)).toBe(true);
  });

  it('filters by status and a starts_at window', async () => {
    const scheduled = (await call(sandbox, '/v1/appointments?per_page=100&status=scheduled')).body.data;
    expect(scheduled.length).toBeGreaterThan(0);
    expect(scheduled.every((a: Json) => a.status === 'scheduled')).toBe(true);
    const all = (await call(sandbox, '/v1/appointments?per_page=100')).body.data;
    const from = all[3].starts_at;
    const to = encodeURIComponent(all[6].starts_at); // inclusive; a bare date would be that day's midnight
    const window = (await call(sandbox, `/v1/appointments?per_page=100&from=${from}&to=${to}`)).body.data;
    expect(window.map((a: Json) => a.id)).toEqual(all.slice(3, 7).map((a: Json) => a.id));
  });

  it('answers 422 for bad filters', async () => {
    const result = await call(sandbox, '/v1/appointments?status=late&from=soon&to=2026-13-01');
    expect(result.status).toBe(422);
    expect(Object.keys(result.body.errors).sort()).toEqual(['from', 'status', 'to']);
  });
});

describe('unpaginated lists', () => {
  it('GET /v1/channels answers success and a plain array', async () => {
    const { status, body } = await call(sandbox, '/v1/channels');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['success', 'data']);
    expect(body.data).toHaveLength(4);
    expect(body.data.map((c: Json) => c.type)).toEqual(['whatsapp', 'instagram', 'messenger', 'sms']);
    expect(body.data.map((c: Json) => c.id)).toEqual(tenantOne.channels);
    expect(Object.keys(body.data[0])).toEqual(['id', 'name', 'type', 'is_active', 'created_at']);
    expect(body.data.filter((c: Json) => !c.is_active)).toHaveLength(1);
    expect((await call(sandbox, '/v1/channels', { tenant: 2 })).body.data.map((c: Json) => c.id)).toEqual([
      5, 6, 7, 8,
    ]);
  });

  it('GET /v1/account-transaction-types answers slug/label pairs', async () => {
    const { status, body } = await call(sandbox, '/v1/account-transaction-types');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data.map((t: Json) => t.slug)).toEqual([
      'deposit',
      'withdrawal',
      'transfer',
      'fee',
      'refund',
    ]);
    for (const type of body.data) expect(Object.keys(type)).toEqual(['slug', 'label']);
  });
});

describe('PUT /v1/form-templates/{id}', () => {
  it('serves the FormTemplate shape with questions, options and visibility rules', async () => {
    const { status, body } = await call(sandbox, '/v1/form-templates/1', {
      method: 'PUT',
      json: { description: 'Updated by a test.' },
    });
    expect(status).toBe(200);
    expect(Object.keys(body.data)).toEqual(declaredKeys('FormTemplate'));
    expect(body.data).toMatchObject({ id: 1, name: 'Medical history', description: 'Updated by a test.' });
    const [first, second] = body.data.questions;
    expect(Object.keys(first)).toEqual([
      'id',
      'order',
      'label',
      'helper_text',
      'question_type',
      'required',
      'options',
      'visibility_rules',
    ]);
    expect(first.options).toEqual([
      { id: expect.any(Number), label: 'yes', order: 1 },
      { id: expect.any(Number), label: 'no', order: 2 },
    ]);
    expect(second.visibility_rules).toEqual([
      {
        id: expect.any(Number),
        depends_on_question_id: first.id,
        operator: 'equals',
        value: 'yes',
        match_type: 'all',
      },
    ]);
    expect(Date.parse(body.data.updated_at)).toBeGreaterThan(Date.parse(body.data.created_at));
  });

  it('changes name, description and is_active together', async () => {
    const json = { name: ' Intake form ', description: '', is_active: false };
    const { body } = await call(sandbox, '/v1/form-templates/2', { method: 'PUT', json });
    expect(body.data).toMatchObject({ name: 'Intake form', description: '', is_active: false });
    const again = await call(sandbox, '/v1/form-templates/2', { method: 'PUT', json: { is_active: '1' } });
    expect(again.body.data).toMatchObject({ name: 'Intake form', is_active: true });
  });

  it('answers 422 for no field, an empty name or wrong types', async () => {
    const none = await call(sandbox, '/v1/form-templates/1', { method: 'PUT', json: { colour: 'red' } });
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.errors)).toEqual(['name', 'description', 'is_active']);
    const wrong = await call(sandbox, '/v1/form-templates/1', {
      method: 'PUT',
      json: { name: '  ', description: 5, is_active: 'yes' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({
      message: 'The name field is required. (and 2 more errors)',
      errors: {
        name: ['The name field is required.'],
        description: ['The description field must be a string.'],
        is_active: ['The is active field must be true or false.'],
      },
    });
    expect(
      (await call(sandbox, '/v1/form-templates/1', { method: 'PUT', json: { name: 7 } })).body.errors,
    ).toEqual({
      name: ['The name field must be a string.'],
    });
  });

  it('answers the legacy 404 for unknown and foreign templates', async () => {
    for (const id of ['999', '4', 'abc']) {
      const result = await call(sandbox, `/v1/form-templates/${id}`, { method: 'PUT', json: { name: 'x' } });
      expect(result.status).toBe(404);
      expect(result.body).toEqual(legacyErrorBody('Form template not found.'));
    }
  });

  it('is for admins and staff with form-templates:write', async () => {
    const json = { name: 'x' };
    const salesperson = sandbox.issueToken({ userId: 2 });
    expect(
      (await call(sandbox, '/v1/form-templates/1', { method: 'PUT', json, token: salesperson })).status,
    ).toBe(403);
    const staff = sandbox.issueToken({ userId: 4 });
    expect(
      (await call(sandbox, '/v1/form-templates/4', { method: 'PUT', json, token: staff, tenant: 2 })).status,
    ).toBe(200);
    const scoped = sandbox.issueToken({ userId: 1, scopes: ['customers:write'] });
    expect((await call(sandbox, '/v1/form-templates/1', { method: 'PUT', json, token: scoped })).status).toBe(
      403,
    );
  });
});

describe('GET /v1/announcements/{id}', () => {
  it('reads current, expired and inactive announcements alike', async () => {
    const { announcements } = tenantOne;
    for (const id of [...announcements.current, announcements.expired, announcements.inactive]) {
      const result = await call(sandbox, `/v1/announcements/${id}`);
      expect(result.status).toBe(200);
      expect(Object.keys(result.body.data)).toEqual(declaredKeys('Announcement'));
    }
    const expired = (await call(sandbox, `/v1/announcements/${announcements.expired}`)).body.data;
    expect(Date.parse(expired.end_date)).toBeLessThan(Date.now());
    expect(expired.is_active).toBe(true);
    const inactive = (await call(sandbox, `/v1/announcements/${announcements.inactive}`)).body.data;
    expect(inactive.is_active).toBe(false);
  });

  it('answers 404 RESOURCE_NOT_FOUND for unknown and foreign ids', async () => {
    for (const id of ['999', '6']) {
      const result = await call(sandbox, `/v1/announcements/${id}`);
      expect(result).toMatchObject({ status: 404, body: coded404('Announcement not found.') });
    }
  });
});

describe('GET /v1/ai-reports/{id}/pdf', () => {
  it('downloads a ready report as a real PDF', async () => {
    const id = tenantOne.aiReports.ready[0];
    const result = await call(sandbox, `/v1/ai-reports/${id}/pdf`);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('application/pdf');
    expect(result.headers.get('content-disposition')).toBe(`attachment; filename="ai-report-${id}.pdf"`);
    expect(result.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expectValidPdf(result.bytes, [`AI report #${id}`, 'Northside Clinic']);
  });

  it('answers the coded BAD_REQUEST (400) while a report is generating', async () => {
    const result = await call(sandbox, `/v1/ai-reports/${tenantOne.aiReports.notReady}/pdf`);
    expect(result.status).toBe(400);
    expect(result.headers.get('content-type')).toBe('application/json');
    expect(result.body).toMatchObject({ success: false, error_code: 'BAD_REQUEST', errors: null });
  });

  it('answers 404 RESOURCE_NOT_FOUND for unknown and foreign reports', async () => {
    for (const id of ['999', '4']) {
      const result = await call(sandbox, `/v1/ai-reports/${id}/pdf`);
      expect(result).toMatchObject({ status: 404, body: coded404('AI report not found.') });
    }
  });
});

describe('POST /v1/sales/{id}/stock-deduct', () => {
  it('deducts once (200), then answers 409 STOCK_ALREADY_DEDUCTED', async () => {
    const id = tenantOne.sales.notDeducted[0];
    const result = await call(sandbox, `/v1/sales/${id}/stock-deduct`, { method: 'POST' });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      id,
      tenant_id: 1,
      currency: 'GBP',
      stock_deducted: true,
      stock_deducted_at: expect.any(String),
    });
    const sale = result.body.data;
    const sum = sale.items.reduce((total: number, item: Json) => total + item.quantity * item.unit_price, 0);
    expect(sale.total).toBeCloseTo(sum, 2);
    expect(Object.keys(sale.items[0])).toEqual(['product_id', 'name', 'quantity', 'unit_price']);
    const again = await call(sandbox, `/v1/sales/${id}/stock-deduct`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, error_code: 'STOCK_ALREADY_DEDUCTED' });
  });

  it('answers 409 for the sale seeded as already deducted', async () => {
    const result = await call(sandbox, `/v1/sales/${tenantOne.sales.alreadyDeducted}/stock-deduct`, {
      method: 'POST',
    });
    expect(result.status).toBe(409);
    expect(result.body.data.stock_deducted_at).toEqual(expect.any(String));
  });

  it('answers 404 RESOURCE_NOT_FOUND for unknown and foreign sales', async () => {
    for (const id of ['999', '4']) {
      const result = await call(sandbox, `/v1/sales/${id}/stock-deduct`, { method: 'POST' });
      expect(result).toMatchObject({ status: 404, body: coded404('Sale not found.') });
    }
  });
});
