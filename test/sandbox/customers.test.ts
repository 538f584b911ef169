// Customer reads and writes: search, sort, create and validation, masking and erased records.
import { describe, expect, it } from 'vitest';
import { type RunningSandbox } from '../../src/sandbox/index.js';
import { allCustomers, call, type Json, sandboxForFile } from './client.js';

let sandbox: RunningSandbox;
sandboxForFile(
  (running) => {
    sandbox = running;
  },
  { records: 40 },
);

describe('reading customers', () => {
  it('reads one customer by id', async () => {
    const result = await call(sandbox, '/v1/customers/1');
    expect(result.status).toBe(200);
    expect(result.body.success).toBe(true);
    expect(result.body.data).toMatchObject({ id: 1, tenant_id: 1, is_lead_stage: false });
    expect(Object.keys(result.body.data)).toEqual(
      expect.arrayContaining([
        'first_name',
        'email',
        'phone_number',
        'date_of_birth',
        'record_state',
        'created_at',
      ]),
    );
  });

  it('answers 404 RESOURCE_NOT_FOUND for unknown and non-numeric ids', async () => {
    for (const id of ['999999', 'abc', '0']) {
      const result = await call(sandbox, `/v1/customers/${id}`);
      expect(result.status).toBe(404);
      expect(result.body.error_code).toBe('RESOURCE_NOT_FOUND');
    }
  });

  it('searches first name, last name and email, case-insensitively', async () => {
    const everyone = await allCustomers(sandbox);
    const lastName: string = everyone.find((c) => c.last_name !== null && !c.is_masked).last_name;
    const needle = lastName.slice(0, 3).toUpperCase();
    const { body } = await call(sandbox, `/v1/customers?per_page=100&search=${encodeURIComponent(needle)}`);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.meta.total).toBe(body.data.length);
    for (const customer of body.data) {
      const haystack = [customer.first_name, customer.last_name, customer.email].join(' ').toLowerCase();
      expect(haystack).toContain(needle.toLowerCase());
    }
  });

  it('sorts by last_name and created_at in either order', async () => {
    const byName = (await call(sandbox, '/v1/customers?per_page=100&sort_by=last_name&sort_order=desc')).body
      .data;
    const names = byName.map((c: Json) => c.last_name).filter((n: string | null) => n !== null);
    expect(names).toEqual([...names].sort().reverse());
    const byDate = (await call(sandbox, '/v1/customers?per_page=100&sort_by=created_at')).body.data;
    const dates = byDate.map((c: Json) => c.created_at);
    expect(dates).toEqual([...dates].sort());
    expect(byDate.map((c: Json) => c.id)).not.toEqual(
      byDate.map((c: Json) => c.id).sort((a: number, b: number) => a - b),
    );
  });
});

describe('creating customers', () => {
  it('creates a customer (201) that can then be read and listed', async () => {
    const before = (await call(sandbox, '/v1/customers')).body.meta.total;
    const created = await call(sandbox, '/v1/customers', {
      json: {
        first_name: '  Ada ',
        last_name: "O'Neil, Jr.",
        email: 'ada@example.com',
        phone_number: '+44 20-7946 0000',
        date_of_birth: '1990-12-10',
        favourite_colour: 'green',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.success).toBe(true);
    expect(created.body.data).toMatchObject({
      tenant_id: 1,
      first_name: 'Ada',
      last_name: "O'Neil, Jr.",
      email: 'ada@example.com',
      phone_number: '+44 20-7946 0000',
      date_of_birth: '1990-12-10',
      is_masked: false,
      record_state: { is_read_only: false, reason_code: null },
    });
    expect(created.body.data).not.toHaveProperty('favourite_colour');
    expect(created.body.data.id).toBeGreaterThan(120);
    const read = await call(sandbox, `/v1/customers/${created.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(created.body.data);
    expect((await call(sandbox, '/v1/customers')).body.meta.total).toBe(before + 1);
    expect((await call(sandbox, `/v1/customers/${created.body.data.id}`, { tenant: 2 })).status).toBe(404);
  });

  it('answers 422 listing every failing field', async () => {
    const result = await call(sandbox, '/v1/customers', {
      json: {
        first_name: '',
        last_name: 'x'.repeat(101),
        email: 'not-an-email',
        phone_number: 'call me',
        date_of_birth: '2999-01-01',
      },
    });
    expect(result.status).toBe(422);
    expect(result.body.errors).toEqual({
      first_name: ['The first name field is required.'],
      last_name: ['The last name field must not be greater than 100 characters.'],
      email: ['The email field must be a valid email address.'],
      phone_number: ['The phone number field format is invalid.'],
      date_of_birth: ['The date of birth field must be a date before or equal to today.'],
    });
    expect(result.body.message).toBe('The first name field is required. (and 4 more errors)');
  });

  it('rejects wrong types, impossible dates and short phone numbers', async () => {
    const result = await call(sandbox, '/v1/customers', {
      json: { first_name: 5, last_name: 'Ok', phone_number: '12', date_of_birth: '2023-02-30' },
    });
    expect(result.status).toBe(422);
    expect(result.body.errors).toEqual({
      first_name: ['The first name field must be a string.'],
      phone_number: ['The phone number field must be between 7 and 20 characters.'],
      date_of_birth: ['The date of birth field must match the format Y-m-d.'],
    });
  });

  it('treats an empty body as missing required fields', async () => {
    const result = await call(sandbox, '/v1/customers', { method: 'POST' });
    expect(result.status).toBe(422);
    expect(Object.keys(result.body.errors)).toEqual(['first_name', 'last_name']);
  });
});

describe('confidential and erased customers', () => {
  it('masks lead patients for a viewer but not for the assignee or an admin', async () => {
    const asViewer = await allCustomers(sandbox, { token: sandbox.issueToken({ userId: 3 }) });
    const asOwner = await allCustomers(sandbox, { token: sandbox.issueToken({ userId: 2 }) });
    const asAdmin = await allCustomers(sandbox);
    const masked = asViewer.filter((c) => c.is_masked);
    expect(masked.length).toBeGreaterThanOrEqual(4);
    for (const customer of masked) {
      expect(customer.lead_id).toEqual(expect.any(Number));
      expect(customer.assigned_user_id).toBe(2);
      expect(customer.first_name).toMatch(/^\S\*\*\*$/);
      expect(customer.last_name).toMatch(/^\S\*\*\*$/);
      expect(customer.email).toMatch(/^\S\*\*\*@\*\*\*$/);
      expect(customer.phone_number).toMatch(/^\*\*\*\d{4}$/);
      const clear = asAdmin.find((c) => c.id === customer.id);
      expect(clear.is_masked).toBe(false);
      expect(clear.first_name.startsWith(customer.first_name[0])).toBe(true);
      expect(clear.email).toContain('@example.com');
      expect(asOwner.find((c) => c.id === customer.id).is_masked).toBe(false);
    }
    expect(asViewer.filter((c) => !c.is_masked && c.lead_id !== null)).toEqual([]);
  });

  it('does not let a masked patient be found by the hidden name', async () => {
    const token = sandbox.issueToken({ userId: 3 });
    const admin = await allCustomers(sandbox);
    const viewer = await allCustomers(sandbox, { token });
    const hidden = viewer.find((c) => c.is_masked);
    const clearEmail: string = admin.find((c) => c.id === hidden.id).email;
    const found = await call(sandbox, `/v1/customers?search=${encodeURIComponent(clearEmail)}`, { token });
    expect(found.body.data).toEqual([]);
  });

  it('shows erased patients as read-only rows with no identity', async () => {
    const erased = (await allCustomers(sandbox)).filter((c) => c.record_state.is_read_only);
    expect(erased.length).toBeGreaterThanOrEqual(3);
    for (const customer of erased) {
      expect(customer.record_state).toEqual({ is_read_only: true, reason_code: 'CUSTOMER_ERASED' });
      expect(customer).toMatchObject({ first_name: null, last_name: null, email: null, phone_number: null });
      expect(customer.is_masked).toBe(false);
    }
    const one = await call(sandbox, `/v1/customers/${erased[0].id}`);
    expect(one.body.data.record_state.reason_code).toBe('CUSTOMER_ERASED');
  });
});
