// Every tenant-scoped route: scope names, 401/400/428, scope and role 403s, and bodies that are not JSON.
import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../src/sandbox/api/routes.js';
import { API_SCOPES, type RunningSandbox } from '../../src/sandbox/index.js';
import { call, sandboxForFile } from './client.js';

let sandbox: RunningSandbox;
sandboxForFile(
  (running) => {
    sandbox = running;
  },
  { erasureStepSeconds: 0 },
);

/** A concrete path per route pattern, with ids that exist in tenant 1. */
const concrete = (pattern: string) => pattern.replace('{messageId}', '2').replace('{id}', '1');
const tenantRoutes = API_ROUTES.filter((route) => route.tenantScoped);

describe('every tenant-scoped route', () => {
  it('needs the scope `<first path segment>:read|write`, which the provider knows', () => {
    for (const route of tenantRoutes) {
      const segment = route.pattern.split('/')[2];
      const scope = `${segment}:${route.method === 'GET' ? 'read' : 'write'}`;
      expect(route.scope, `${route.method} ${route.pattern}`).toBe(scope);
      expect(API_SCOPES).toContain(scope);
    }
  });

  it('answers 401 without a token, 400 without X-Tenant and 428 on the tenant still in setup', async () => {
    for (const route of tenantRoutes) {
      const path = concrete(route.pattern);
      const label = `${route.method} ${path}`;
      expect((await call(sandbox, path, { method: route.method, token: null })).status, label).toBe(401);
      expect((await call(sandbox, path, { method: route.method, tenant: null })).status, label).toBe(400);
      expect((await call(sandbox, path, { method: route.method, tenant: 3 })).status, label).toBe(428);
    }
  });

  it('answers 403 to a token without its scope', async () => {
    const token = sandbox.issueToken({ userId: 1, scopes: ['users:read'] });
    for (const route of tenantRoutes.filter((r) => r.scope !== 'users:read')) {
      const result = await call(sandbox, concrete(route.pattern), { method: route.method, token });
      expect(result.status, `${route.method} ${route.pattern}`).toBe(403);
      expect(result.body).toEqual({ message: 'Invalid scope(s) provided.' });
    }
  });

  it('lets a viewer read but never write', async () => {
    const token = sandbox.issueToken({ userId: 3 });
    for (const route of tenantRoutes) {
      const result = await call(sandbox, concrete(route.pattern), { method: route.method, token });
      const label = `${route.method} ${route.pattern}`;
      if (route.method === 'GET') expect(result.status, label).not.toBe(403);
      else
        expect(result, label).toMatchObject({
          status: 403,
          body: { message: 'This action is unauthorized.' },
        });
    }
  });
});

describe('bodies that are not JSON', () => {
  const jsonWrites = [
    ['POST', '/v1/leads/31/notes'],
    ['PUT', '/v1/form-templates/1'],
    ['POST', '/v1/data-erasure-requests'],
    ['POST', '/v1/data-erasure-requests/1/cancel'],
  ] as const;

  it('answers 400 for malformed JSON and 413 for a body over 1 MiB, and keeps serving', async () => {
    for (const [method, path] of jsonWrites) {
      const malformed = await call(sandbox, path, { method, rawBody: '{"content": ' });
      expect(malformed.status, path).toBe(400);
      expect(malformed.body.error).toBe('Invalid JSON payload.');
      const huge = await call(sandbox, path, {
        method,
        rawBody: JSON.stringify({ content: 'x'.repeat(1 << 20) }),
      });
      expect(huge.status, path).toBe(413);
      expect(huge.text).not.toMatch(/at \w+ \(/);
    }
    expect((await call(sandbox, '/v1/account')).status).toBe(200);
  });

  it('answers 404 in the legacy envelope for unknown paths under the new resources', async () => {
    for (const path of [
      '/v1/appointments/1',
      '/v1/conversations/1',
      '/v1/sales/1',
      '/v1/data-erasure-requests/1/x',
    ]) {
      const result = await call(sandbox, path);
      expect(result.status, path).toBe(404);
      expect(result.body).toMatchObject({
        success: false,
        data: { message: expect.stringContaining('could not') },
      });
    }
  });
});
