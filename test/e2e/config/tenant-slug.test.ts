// `--tenant SLUG`, as `tenants use` takes it: looked up once through the account, remembered in the profile (with the
// base_url that answered), then sent as the id with no look-up; `tenants list --offline` shows what is remembered
// without a request. Another server's tenants (--base-url, CLINIC_BASE_URL) never replace the profile's.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lines } from '../../helpers/cli.js';
import { type FakeApi, startFakeApi } from '../../helpers/fake-api.js';
import { clinicSending, useWorld } from '../../helpers/world.js';

const world = useWorld();
const profile = async () =>
  JSON.parse(await readFile(join(world.configDir, 'config.json'), 'utf8')).profiles.sandbox as Record<
    string,
    unknown
  >;
const sent = (requests: { method: string; path: string; headers: Record<string, unknown> }[]) =>
  requests.map((r) => `${r.method} ${r.path} ${r.headers['x-tenant'] ?? '-'}`);

/** `customers list --limit 1` for one tenant, with the requests it sent. */
const listFor = (tenant: string) =>
  clinicSending(world, ['--tenant', tenant, 'customers', 'list', '--limit', '1', '-o', 'json']);

describe('--tenant SLUG', () => {
  it('the first time: the account is read once, the slug sent as its id, and remembered', async () => {
    const run = await listFor('harbor-dental');
    expect(run.code, run.stderr).toBe(0);
    expect(sent(run.requests)).toEqual(['GET /api/v1/account -', 'GET /api/v1/customers 2']);
    expect(await profile()).toMatchObject({
      tenant: '1', // the profile's own tenant is left as it was
      tenant_slugs: {
        base_url: world.sandbox.info.base_url,
        slugs: { northside: '1', 'harbor-dental': '2', 'lakeview-physio': '3' },
      },
    });
  });

  it('after that: no look-up, whatever the case of the slug', async () => {
    const run = await listFor('Harbor-Dental');
    expect(run.code, run.stderr).toBe(0);
    expect(sent(run.requests)).toEqual(['GET /api/v1/customers 2']);
  });

  it('an id is sent as it is, with no look-up', async () => {
    const run = await listFor('2');
    expect(sent(run.requests)).toEqual(['GET /api/v1/customers 2']);
  });

  it('a slug not in the account: exit 5, the account tenants named, nothing else sent', async () => {
    const run = await clinicSending(world, ['--tenant', 'nowhere', 'customers', 'list']);
    expect(run.code).toBe(5);
    expect(lines(run.stderr)).toEqual([
      "error: no tenant 'nowhere' in your account; yours: 1 (northside), 2 (harbor-dental), 3 (lakeview-physio)",
    ]);
    expect(sent(run.requests)).toEqual(['GET /api/v1/account -']);
  });

  it('tenants list --offline: the remembered slugs, without a request', async () => {
    const run = await clinicSending(world, ['tenants', 'list', '--offline', '-o', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      { id: 1, slug: 'northside', current: true },
      { id: 2, slug: 'harbor-dental', current: false },
      { id: 3, slug: 'lakeview-physio', current: false },
    ]);
    expect(run.requests).toEqual([]);
  });
});

describe("another server's tenants", () => {
  // Another API whose account has a tenant of the same slug as the sandbox's first, with another id.
  let other: FakeApi;
  beforeAll(async () => {
    other = await startFakeApi({
      answer: ({ path }) =>
        path === '/api/v1/account'
          ? { body: { data: { id: 7, email: 'ada@example.com', tenants: [{ id: 2, slug: 'northside' }] } } }
          : undefined,
    });
  });
  afterAll(() => other.close());
  const token = () => ({ CLINIC_TOKEN: world.sandbox.info.token });

  it.each([
    ['--base-url', () => ['--base-url', other.baseUrl], () => ({})],
    ['CLINIC_BASE_URL', () => [], () => ({ CLINIC_BASE_URL: other.baseUrl })],
  ])('tenants list with %s leaves the slugs of the profile as they were', async (_how, flags, env) => {
    const before = await profile();
    const list = await world.clinic([...flags(), 'tenants', 'list', '-o', 'json'], {
      env: { ...token(), ...env() },
    });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([{ id: 2, slug: 'northside', current: false }]);
    expect(await profile()).toEqual(before);

    const run = await clinicSending(world, ['--tenant', 'northside', 'api', '/v1/channels'], {
      env: token(),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(sent(run.requests)).toEqual(['GET /api/v1/channels 1']);
  });
});
