// The tenant slugs a profile remembers belong to one server: they are recorded with the base_url that answered, used
// for that base_url alone, and never replaced by the answer of another server (--base-url, CLINIC_BASE_URL). And a
// tenant whose id the config would refuse (0, "007", too large) is never saved nor sent.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rememberedTenants, sameBaseUrl, tenantId, tenantIdFor } from '../../../src/cli/account-tenants.js';
import { type ConfigData, saveConfig } from '../../../src/core/config/config-file.js';
import { NetworkError } from '../../../src/core/errors.js';
import { useInProcess } from '../../helpers/in-process.js';

const HOME = 'https://api.clinic.test/api';
const OTHER = 'https://other.clinic.test/api';
/** Another API under the same host as HOME. */
const BESIDE = 'https://api.clinic.test/other/api';

const scaffold = useInProcess();
/** The profile's own settings only: no CLINIC_BASE_URL, no CLINIC_TENANT (CLINIC_TOKEN signs in). */
const env = { CLINIC_BASE_URL: undefined, CLINIC_TENANT: undefined };
const configDir = () => join(scaffold.dir, 'config');

async function writeProfile(profile: Record<string, unknown>): Promise<void> {
  const data: ConfigData = { profiles: { sandbox: { base_url: HOME, ...profile } } };
  await saveConfig({ CLINIC_CONFIG_DIR: configDir() }, data);
}

async function savedProfile(): Promise<Record<string, unknown>> {
  const text = await readFile(join(configDir(), 'config.json'), 'utf8');
  return (JSON.parse(text) as { profiles: Record<string, Record<string, unknown>> }).profiles.sandbox!;
}

/** GET /v1/account answered, at the API under `base`, with these tenants. */
function account(base: string, tenants: unknown[]): void {
  const { origin, pathname } = new URL(base);
  scaffold.transport.on('GET', `${pathname}/v1/account`, (request) => {
    expect(request.origin).toBe(origin);
    const body = { data: { id: 1, email: 'ada@example.com', tenants } };
    return { status: 200, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  });
}

/** GET /v1/channels at HOME, answered with an empty page; what X-Tenant it was sent with. */
function channels(): () => string | undefined {
  let tenant: string | undefined;
  scaffold.transport.on('GET', '/api/v1/channels', (request) => {
    expect(request.origin).toBe('https://api.clinic.test');
    tenant = request.headers['x-tenant'];
    return { status: 200, body: '{"data":[]}', headers: { 'content-type': 'application/json' } };
  });
  return () => tenant;
}

const HOME_CACHE = { base_url: HOME, slugs: { northside: '1', 'harbor-dental': '2' } };
const run = (args: string[], extra: Record<string, string> = {}) =>
  scaffold.run(['--profile', 'sandbox', ...args], { env: { ...env, ...extra } });

describe("the tenant slugs of another server never replace the profile's", () => {
  it.each([
    ['--base-url, another host', ['--base-url', OTHER], {}],
    ['--base-url, the same host under another path', ['--base-url', BESIDE], {}],
    ['CLINIC_BASE_URL', [], { CLINIC_BASE_URL: OTHER }],
  ])('tenants list with %s leaves the cache as it was', async (_how, flags, extra) => {
    await writeProfile({});
    account(HOME, [
      { id: 1, slug: 'northside' },
      { id: 2, slug: 'harbor-dental' },
    ]);
    expect((await run(['tenants', 'list'])).code).toBe(0);
    const cached = await savedProfile();

    account(flags[1] ?? OTHER, [{ id: 7, slug: 'northside' }]);
    const list = await run([...flags, 'tenants', 'list', '-o', 'json'], extra);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([{ id: 7, slug: 'northside', current: false }]);
    expect(await savedProfile()).toEqual(cached);

    // The profile's own server: northside is still its tenant 1, from the cache, with no look-up.
    const sent = channels();
    const call = await run(['--tenant', 'northside', 'api', '/v1/channels']);
    expect(call.code, call.stderr).toBe(0);
    expect(sent()).toBe('1');
  });

  it("--tenant SLUG with --base-url: that server's account is asked, its answer not remembered", async () => {
    await writeProfile({ tenant_slugs: HOME_CACHE });
    account(OTHER, [{ id: 7, slug: 'northside' }]);
    let tenant: string | undefined;
    scaffold.transport.on('GET', '/api/v1/channels', (request) => {
      expect(request.origin).toBe('https://other.clinic.test');
      tenant = request.headers['x-tenant'];
      return { status: 200, body: '{"data":[]}', headers: { 'content-type': 'application/json' } };
    });
    const call = await run(['--base-url', OTHER, '--tenant', 'northside', 'api', '/v1/channels']);
    expect(call.code, call.stderr).toBe(0);
    expect(tenant).toBe('7');
    expect((await savedProfile()).tenant_slugs).toEqual(HOME_CACHE);
  });

  it.each([
    ['of another base_url', { base_url: OTHER, slugs: { northside: '7' } }],
    ['of the same host under another path', { base_url: BESIDE, slugs: { northside: '7' } }],
    ['that records no base_url (an older file)', { northside: '7' }],
  ])(
    'a cache %s is not trusted: the slug is looked up afresh and remembered for this server',
    async (_how, cache) => {
      await writeProfile({ tenant_slugs: cache });
      account(HOME, [
        { id: 1, slug: 'northside' },
        { id: 2, slug: 'harbor-dental' },
      ]);
      const sent = channels();
      const call = await run(['--tenant', 'northside', 'api', '/v1/channels']);
      expect(call.code, call.stderr).toBe(0);
      expect(sent()).toBe('1');
      expect((await savedProfile()).tenant_slugs).toEqual(HOME_CACHE);
    },
  );

  it('tenants list remembers its own server with the base_url, and --offline shows it for that server only', async () => {
    await writeProfile({ tenant: '2' });
    account(HOME, [
      { id: 1, slug: 'Northside' },
      { id: 2, slug: 'harbor-dental' },
    ]);
    expect((await run(['tenants', 'list'])).code).toBe(0);
    expect((await savedProfile()).tenant_slugs).toEqual(HOME_CACHE);
    const offline = await run(['tenants', 'list', '--offline', '-o', 'json']);
    expect(JSON.parse(offline.stdout)).toEqual([
      { id: 1, slug: 'northside', current: false },
      { id: 2, slug: 'harbor-dental', current: true },
    ]);
    const elsewhere = await run(['--base-url', OTHER, 'tenants', 'list', '--offline', '-o', 'json']);
    expect(JSON.parse(elsewhere.stdout)).toEqual([]);
    expect(scaffold.transport.requests).toHaveLength(1);
  });

  it('config unset tenant_slugs clears the cache', async () => {
    await writeProfile({ tenant: '1', tenant_slugs: HOME_CACHE });
    const unset = await run(['config', 'unset', 'tenant_slugs']);
    expect({ code: unset.code, stderr: unset.stderr }).toEqual({
      code: 0,
      stderr: 'tenant_slugs unset in profile sandbox\n',
    });
    expect(await savedProfile()).toEqual({ base_url: HOME, tenant: '1' });
  });

  it('rememberedTenants: only for the base_url recorded', () => {
    const profile = { tenant_slugs: HOME_CACHE };
    expect([...rememberedTenants(profile, HOME)]).toEqual([
      ['northside', '1'],
      ['harbor-dental', '2'],
    ]);
    expect(rememberedTenants(profile, OTHER).size).toBe(0);
    expect(rememberedTenants(profile, undefined).size).toBe(0);
    expect(rememberedTenants({ tenant_slugs: { northside: '1' } }, HOME).size).toBe(0);
  });
});

describe('a tenant whose id the config refuses is not usable', () => {
  const TENANTS = [
    { id: 0, slug: 'zero', name: 'Zero Clinic' },
    { id: '007', slug: 'bond' },
    { id: '123456789012345678901234', slug: 'huge' },
    { id: 2 ** 53, slug: 'unsafe' },
    { id: 2, slug: 'northside' },
  ];

  it('tenantId takes what the config takes: a positive whole number of a safe size', () => {
    const ids = [
      0,
      '0',
      '007',
      -1,
      1.5,
      2 ** 53,
      '9007199254740993',
      '123456789012345678901234',
      7,
      '12',
      2 ** 53 - 1,
    ];
    expect(ids.map((id) => tenantId({ id }))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      '7',
      '12',
      '9007199254740991',
    ]);
  });

  it.each([['zero'], ['0'], ['bond'], ['007'], ['huge'], ['unsafe']])(
    'tenants use %s: exit 1, a bad answer, and nothing saved',
    async (wanted) => {
      await writeProfile({ tenant: '2' });
      account(HOME, TENANTS);
      const use = await run(['tenants', 'use', wanted]);
      expect(use.code).toBe(1);
      expect(use.stderr).toMatch(
        /^error: unexpected response for the account: tenant .+ has no usable id \(not a positive whole number\), so it cannot be used\n$/,
      );
      expect(await savedProfile()).toEqual({ base_url: HOME, tenant: '2' });
      expect((await run(['config', 'list', '-o', 'json'])).code).toBe(0);
    },
  );

  it('tenants use zero says which tenant', () => {
    expect(() => tenantIdFor(TENANTS, 'zero')).toThrow(
      new NetworkError(
        'unexpected response for the account: tenant 0 (zero) has no usable id (not a positive whole number), ' +
          'so it cannot be used',
      ),
    );
  });

  it('a usable tenant is saved, and only usable tenants are remembered and offered', async () => {
    await writeProfile({});
    account(HOME, TENANTS);
    const use = await run(['tenants', 'use', 'northside']);
    expect(use.code, use.stderr).toBe(0);
    expect(await savedProfile()).toEqual({
      base_url: HOME,
      tenant: '2',
      tenant_slugs: { base_url: HOME, slugs: { northside: '2' } },
    });
    account(HOME, TENANTS);
    const missing = await run(['tenants', 'use', 'nowhere']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toBe("error: no tenant 'nowhere' in your account; yours: 2 (northside)\n");
    account(HOME, TENANTS);
    expect((await run(['account', '-o', 'json'])).code).toBe(0);
  });
});

describe('tenants use against another server than the profile’s', () => {
  it.each([
    ['--base-url', ['--base-url', OTHER], {}],
    ['CLINIC_BASE_URL', [], { CLINIC_BASE_URL: OTHER }],
  ])('with %s: refused (exit 2) before any request, nothing saved', async (from, flags, extra) => {
    await writeProfile({ tenant: '1' });
    const use = await run([...flags, 'tenants', 'use', 'northside'], extra);
    expect(use).toMatchObject({ code: 2, stdout: '' });
    expect(use.stderr).toBe(
      `error: tenants use would save a tenant of ${OTHER} (${from}) in profile sandbox, whose base_url is ${HOME}: ` +
        `run it without ${from}, or pass --tenant for one call\n`,
    );
    expect(scaffold.seen).toEqual([]);
    expect(await savedProfile()).toEqual({ base_url: HOME, tenant: '1' });
  });
});

describe('one API, written two ways', () => {
  it('sameBaseUrl: case, a default port and a trailing slash do not make another server; a path does', () => {
    expect(sameBaseUrl('https://API.clinic.test:443/api/', HOME)).toBe(true);
    expect(sameBaseUrl('https://api.clinic.test/api', BESIDE)).toBe(false);
    expect(sameBaseUrl(undefined, HOME)).toBe(false);
    expect(sameBaseUrl('not a url', 'not a url')).toBe(false);
  });

  it('--base-url written in capitals is the profile’s own: tenants use saves, and --tenant SLUG uses the cache', async () => {
    await writeProfile({ tenant_slugs: HOME_CACHE });
    const sent = channels();
    const call = await run([
      '--base-url',
      'https://API.clinic.test:443/api',
      '--tenant',
      'northside',
      'api',
      '/v1/channels',
    ]);
    expect(call.code, call.stderr).toBe(0);
    expect(sent()).toBe('1');
    account(HOME, [{ id: 2, slug: 'harbor-dental' }]);
    const use = await run(['--base-url', 'https://API.clinic.test/api/', 'tenants', 'use', 'harbor-dental']);
    expect(use.code, use.stderr).toBe(0);
  });
});
