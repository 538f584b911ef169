// Who may call what: tokens (401), the X-Tenant header (400/404), setup (428), scopes and roles (403).
import { describe, expect, it } from 'vitest';
import { type RunningSandbox } from '../../src/sandbox/index.js';
import { call, legacyErrorBody, codedErrorBody, sandboxForFile } from './client.js';

let sandbox: RunningSandbox;
sandboxForFile((running) => {
  sandbox = running;
});

const validCustomer = { first_name: 'Ada', last_name: 'Lovelace' };

describe('authentication', () => {
  it('answers 401 without a token', async () => {
    const result = await call(sandbox, '/v1/customers', { token: null });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ message: 'Unauthenticated.' });
  });

  it('answers 401 for an unknown or expired token', async () => {
    const expired = sandbox.issueToken({ userId: 1, expiresInSeconds: -1 });
    for (const token of ['clinic_pat_nope', expired]) {
      const result = await call(sandbox, '/v1/account', { token });
      expect(result.status).toBe(401);
      expect(result.body).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it('issues prefixed random tokens that work until they expire', async () => {
    const token = sandbox.issueToken({ userId: 3 });
    expect(token).toMatch(/^clinic_pat_[A-Za-z0-9]{40}$/);
    expect(token).not.toBe(sandbox.issueToken({ userId: 3 }));
    expect(sandbox.info.token).toMatch(/^clinic_pat_[A-Za-z0-9]{40}$/);
    expect((await call(sandbox, '/v1/account', { token })).body.data.name).toBe('Vera Viewer');
    expect(() => sandbox.issueToken({ userId: 99 })).toThrow(/no user 99/);
  });

  it('asks for a token before telling whether a versioned route exists', async () => {
    expect((await call(sandbox, '/v1/no-such-thing', { token: null })).status).toBe(401);
  });
});

describe('account', () => {
  it('needs no X-Tenant and ignores one sent', async () => {
    for (const tenant of [null, 99]) {
      const result = await call(sandbox, '/v1/account', { tenant });
      expect(result.status).toBe(200);
      expect(result.body.success).toBe(true);
      expect(result.body.data).toMatchObject({ id: 1, name: 'Dana Admin', is_active: true });
      expect(result.body.data.tenants.map((t: { slug: string }) => t.slug)).toEqual([
        'northside',
        'harbor-dental',
        'lakeview-physio',
      ]);
    }
  });

  it("lists only the user's own tenants", async () => {
    const result = await call(sandbox, '/v1/account', {
      token: sandbox.issueToken({ userId: 3 }),
      tenant: null,
    });
    expect(result.body.data.tenants).toEqual([
      expect.objectContaining({ id: 1, name: 'Northside Clinic', is_active: true }),
      expect.objectContaining({ id: 2, name: 'Harbor Dental', is_active: true }),
    ]);
  });

  it('describes the sandbox in info', () => {
    expect(sandbox.info).toMatchObject({
      base_url: `http://127.0.0.1:${sandbox.port}/api`,
      auth_url: `http://127.0.0.1:${sandbox.port}`,
      client_id: 'clinic-cli',
      realtime: {
        key: 'sandbox-key',
        host: '127.0.0.1',
        port: sandbox.port,
        tls: false,
        auth_endpoint: `http://127.0.0.1:${sandbox.port}/api/broadcasting/auth`,
      },
    });
    expect(sandbox.info.tenants.map((t) => t.id)).toEqual([1, 2, 3]);
  });
});

describe('X-Tenant', () => {
  it('answers 400 with the legacy envelope when missing', async () => {
    const result = await call(sandbox, '/v1/customers', { tenant: null });
    expect(result.status).toBe(400);
    expect(result.body).toEqual(legacyErrorBody('The X-Tenant header is required.'));
  });

  it('answers 400 when not a positive integer', async () => {
    for (const tenant of ['abc', '0', '-1', '1.5']) {
      const result = await call(sandbox, '/v1/customers', { tenant });
      expect(result.status).toBe(400);
      expect(result.body.error).toBe('The X-Tenant header must be a positive integer.');
      expect(result.body.data.message).toBe(result.body.error);
    }
  });

  it('answers 404 for a tenant the user is not in, or that does not exist', async () => {
    for (const [token, tenant] of [
      [sandbox.info.token, 4],
      [sandbox.info.token, 99],
      [sandbox.issueToken({ userId: 2 }), 2],
    ] as const) {
      const result = await call(sandbox, '/v1/customers', { token, tenant });
      expect(result.status).toBe(404);
      expect(result.body).toEqual(legacyErrorBody('Tenant not found.'));
    }
  });

  it("never serves another tenant's customer", async () => {
    const tenantTwoId = (await call(sandbox, '/v1/customers?per_page=1', { tenant: 2 })).body.data[0].id;
    const result = await call(sandbox, `/v1/customers/${tenantTwoId}`, { tenant: 1 });
    expect(result.status).toBe(404);
    expect(result.body).toEqual(codedErrorBody('RESOURCE_NOT_FOUND', 'Customer not found.'));
    expect((await call(sandbox, `/v1/customers/${tenantTwoId}`, { tenant: 2 })).status).toBe(200);
  });

  it('answers 428 SETUP_REQUIRED on every tenant-scoped route of tenant 3', async () => {
    for (const [path, method] of [
      ['/v1/customers', 'GET'],
      ['/v1/customers/1', 'GET'],
      ['/v1/customers', 'POST'],
      ['/v1/users/1', 'GET'],
    ] as const) {
      const json = method === 'POST' ? validCustomer : undefined;
      const result = await call(sandbox, path, { tenant: 3, method, json });
      expect(result.status).toBe(428);
      expect(result.body).toEqual({
        success: true,
        error_code: 'SETUP_REQUIRED',
        message: 'Tenant setup is incomplete.',
        errors: null,
        data: { next_step: 'Add a billing address in Settings > Billing' },
      });
    }
  });
});

describe('scopes and roles', () => {
  it('refuses a write without customers:write, and creates nothing', async () => {
    const before = (await call(sandbox, '/v1/customers')).body.meta.total;
    const token = sandbox.issueToken({ userId: 1, scopes: ['customers:read'] });
    expect((await call(sandbox, '/v1/customers', { token })).status).toBe(200);
    const result = await call(sandbox, '/v1/customers', { token, json: validCustomer });
    expect(result.status).toBe(403);
    expect(result.body).toEqual({ message: 'Invalid scope(s) provided.' });
    expect((await call(sandbox, '/v1/customers')).body.meta.total).toBe(before);
  });

  it('refuses a read without customers:read', async () => {
    const token = sandbox.issueToken({ userId: 1, scopes: ['customers:write'] });
    const result = await call(sandbox, '/v1/customers', { token });
    expect(result.status).toBe(403);
    expect(result.body).toEqual({ message: 'Invalid scope(s) provided.' });
    expect((await call(sandbox, '/v1/account', { token, tenant: null })).status).toBe(200);
  });

  it('refuses a write by a viewer even with every scope', async () => {
    const token = sandbox.issueToken({ userId: 3, scopes: ['*'] });
    expect((await call(sandbox, '/v1/customers', { token })).status).toBe(200);
    const result = await call(sandbox, '/v1/customers', { token, json: validCustomer });
    expect(result.status).toBe(403);
    expect(result.body).toEqual({ message: 'This action is unauthorized.' });
  });

  it('lets a salesperson and staff write customers', async () => {
    const sales = await call(sandbox, '/v1/customers', {
      token: sandbox.issueToken({ userId: 2 }),
      json: validCustomer,
    });
    expect(sales.status).toBe(201);
    const staff = await call(sandbox, '/v1/customers', {
      token: sandbox.issueToken({ userId: 4 }),
      tenant: 2,
      json: validCustomer,
    });
    expect(staff.status).toBe(201);
    expect(staff.body.data.tenant_id).toBe(2);
  });
});

describe('users', () => {
  it('reads a member of the current tenant', async () => {
    const result = await call(sandbox, '/v1/users/2');
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      success: true,
      data: {
        id: 2,
        name: 'Sam Sales',
        email: expect.any(String),
        title: expect.any(String),
        avatar_url: expect.any(String),
        is_active: true,
      },
    });
  });

  it('answers 404 for users outside the tenant or unknown', async () => {
    for (const id of ['4', '99', 'abc']) {
      const result = await call(sandbox, `/v1/users/${id}`, { tenant: 1 });
      expect(result.status).toBe(404);
      expect(result.body).toEqual(legacyErrorBody('User not found.'));
    }
    expect((await call(sandbox, '/v1/users/4', { tenant: 2 })).status).toBe(200);
  });
});
