// Effective settings: flag > env > profile > default, profile selection, and errors naming their origin.
import { describe, expect, it } from 'vitest';
import type { ConfigData } from '../../../src/core/config/config-file.js';
import { checkValue, keySpec } from '../../../src/core/config/keys.js';
import { Settings, selectProfile } from '../../../src/core/config/settings.js';
import { UsageError } from '../../../src/core/errors.js';
import { useInProcess } from '../../helpers/in-process.js';
import { queueReplies } from '../../helpers/mock-api.js';

const data: ConfigData = {
  current_profile: 'work',
  profiles: {
    default: { base_url: 'https://default.test/api', tenant: '1' },
    work: {
      base_url: 'https://work.test/api',
      tenant: '2',
      output: 'csv',
      scopes: 'openid customers:read',
      realtime: { host: 'rt.work.test' },
    },
    bad: { tenant: 'abc', output: 'xml' },
  },
};

const settingsFor = (
  profile: string,
  env: Record<string, string | undefined> = {},
  flags: Record<string, string | undefined> = {},
) => new Settings({ name: profile, source: 'flag' }, data, env, flags);

describe('precedence: flag > env > profile > default', () => {
  it.each([
    ['base_url', 'https://flag.test/api', 'CLINIC_BASE_URL', 'https://env.test/api', 'https://work.test/api'],
    ['tenant', '30', 'CLINIC_TENANT', '20', '2'],
    ['output', 'json', 'CLINIC_OUTPUT', 'ndjson', 'csv'],
    ['scopes', 'openid flag', 'CLINIC_SCOPES', 'openid env', 'openid customers:read'],
  ])('%s', (key, flagValue, envName, envValue, profileValue) => {
    const env = { [envName]: envValue };
    expect(settingsFor('work', env, { [key]: flagValue }).describe(key)).toEqual({
      key,
      value: flagValue,
      source: 'flag',
    });
    expect(settingsFor('work', env).describe(key)).toEqual({ key, value: envValue, source: 'env' });
    expect(settingsFor('work').describe(key)).toEqual({ key, value: profileValue, source: 'profile' });
  });

  it('scopes default to "openid *"', () => {
    expect(settingsFor('default').describe('scopes')).toEqual({
      key: 'scopes',
      value: 'openid *',
      source: 'default',
    });
  });

  it('keys without a value anywhere are undefined', () => {
    expect(settingsFor('default').describe('output')).toEqual({
      key: 'output',
      value: undefined,
      source: undefined,
    });
  });

  it('an empty environment variable does not override the profile', () => {
    expect(settingsFor('work', { CLINIC_TENANT: '' }).get('tenant')).toBe('2');
  });

  it('reads dotted keys from the profile and from env', () => {
    expect(settingsFor('work').get('realtime.host')).toBe('rt.work.test');
    expect(settingsFor('work', { CLINIC_REALTIME_HOST: 'env.host' }).get('realtime.host')).toBe('env.host');
  });

  it('strips a trailing slash from base_url', () => {
    expect(settingsFor('work', { CLINIC_BASE_URL: 'https://x.test/api/' }).get('base_url')).toBe(
      'https://x.test/api',
    );
  });

  it('a flag given as undefined falls through to env', () => {
    expect(settingsFor('work', { CLINIC_OUTPUT: 'json' }, { output: undefined }).get('output')).toBe('json');
  });

  it('all() lists every known key', () => {
    const keys = settingsFor('work')
      .all()
      .map((s) => s.key);
    expect(keys).toEqual(expect.arrayContaining(['base_url', 'tenant', 'output', 'scopes', 'realtime.host']));
  });
});

describe('invalid values name their origin', () => {
  it('CLINIC_TENANT', () => {
    expect(() => settingsFor('work', { CLINIC_TENANT: 'abc' }).get('tenant')).toThrow(UsageError);
    expect(() => settingsFor('work', { CLINIC_TENANT: 'abc' }).get('tenant')).toThrow(/^CLINIC_TENANT: /);
  });

  it('--tenant flag', () => {
    expect(() => settingsFor('work', {}, { tenant: '0' }).get('tenant')).toThrow(/^--tenant: /);
  });

  it('--base-url flag', () => {
    expect(() => settingsFor('work', {}, { base_url: 'ftp://x' }).get('base_url')).toThrow(/^--base-url: /);
  });

  it('CLINIC_OUTPUT', () => {
    expect(() => settingsFor('work', { CLINIC_OUTPUT: 'yaml' }).get('output')).toThrow(
      /^CLINIC_OUTPUT: .*yaml/,
    );
  });

  it('the profile value', () => {
    expect(() => settingsFor('bad').get('tenant')).toThrow(/'tenant' in profile bad/);
    expect(() => settingsFor('bad').get('output')).toThrow(/'output' in profile bad/);
  });

  it('a valid flag hides an invalid env value', () => {
    expect(settingsFor('bad', { CLINIC_TENANT: 'x' }, { tenant: '5' }).get('tenant')).toBe('5');
  });

  it('unknown keys are usage errors', () => {
    // @ts-expect-error -- not a key: refused by the type checker, and at run time for keys typed by users
    expect(() => settingsFor('work').get('nope')).toThrow(UsageError);
    expect(() => keySpec('realtime')).toThrow(/unknown config key/);
  });

  it('checkValue validates by key', () => {
    expect(checkValue('tenant', '12')).toBe('12');
    expect(() => checkValue('tenant', '-1')).toThrow(UsageError);
    expect(() => checkValue('realtime.tls', 'yes')).toThrow(UsageError);
    expect(checkValue('client_id', 'anything goes')).toBe('anything goes');
  });

  it('a URL setting holds no part a request would drop: no user name or password (never echoed), query, fragment', () => {
    expect(checkValue('base_url', 'https://api.example.com/api/')).toBe('https://api.example.com/api');
    expect(() => checkValue('base_url', 'https://u:secretpw@api.example.com/api')).toThrow(
      new UsageError('base_url must not hold a user name or password (the token is what signs in)'),
    );
    expect(() => checkValue('auth_url', 'https://u@auth.example.com')).toThrow(/user name or password/);
    expect(() => checkValue('base_url', 'https://api.example.com/api?x=1')).toThrow(/must not have a query/);
    expect(() => checkValue('base_url', 'https://api.example.com/api?')).toThrow(/must not have a query/);
    expect(() => checkValue('realtime.auth_endpoint', 'https://a.example/auth#f')).toThrow(/fragment/);
    // A token in a query or a fragment, a password anywhere: never echoed, even in the refusal.
    for (const [key, text] of [
      ['base_url', 'https://api.example.com/api?access_token=S3CRET'],
      ['realtime.auth_endpoint', 'https://api.example.com/auth#token=S3CRET'],
      ['auth_url', 'ftp://u:S3CRET@auth.example.com'],
      ['base_url', 'https://u:S3CRET@exa mple.com'],
    ] as const) {
      let message = '';
      try {
        checkValue(key, text);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, text).toMatch(new RegExp(`^${key} must`));
      expect(message).not.toContain('S3CRET');
    }
  });

  it('realtime.port is a port; realtime.host a host name or an address, nothing more', () => {
    expect(checkValue('realtime.port', '6001')).toBe('6001');
    for (const bad of ['0', '65536', '70000', '-1', '1.5'])
      expect(() => checkValue('realtime.port', bad), bad).toThrow(/must be a port from 1 to 65535/);
    for (const good of ['ws.example.com', '127.0.0.1', '::1', '[::1]', 'localhost', 'WS.Example.com'])
      expect(checkValue('realtime.host', good)).toBe(good);
    for (const bad of [
      '',
      'bad host',
      'ws.example.com:6001',
      'ws.example.com/path',
      'http://ws.example.com',
      'a@b',
    ])
      expect(() => checkValue('realtime.host', bad), bad).toThrow(/must be a host name or an IP address/);
  });
});

describe('selectProfile: --profile > CLINIC_PROFILE > current_profile > default', () => {
  it('flag wins', () => {
    expect(selectProfile('cli', { CLINIC_PROFILE: 'env' }, data)).toEqual({ name: 'cli', source: 'flag' });
  });

  it('then CLINIC_PROFILE', () => {
    expect(selectProfile(undefined, { CLINIC_PROFILE: 'env' }, data)).toEqual({ name: 'env', source: 'env' });
  });

  it('then current_profile in the file', () => {
    expect(selectProfile(undefined, {}, data)).toEqual({ name: 'work', source: 'config' });
  });

  it('then default', () => {
    expect(selectProfile(undefined, {}, { profiles: {} })).toEqual({ name: 'default', source: 'default' });
  });

  it('rejects invalid profile names from flag or env', () => {
    expect(() => selectProfile('../etc', {}, data)).toThrow(UsageError);
    expect(() => selectProfile(undefined, { CLINIC_PROFILE: 'a b' }, data)).toThrow(UsageError);
  });

  it('the selected profile decides the values', () => {
    const choice = selectProfile(undefined, { CLINIC_PROFILE: 'default' }, data);
    expect(new Settings(choice, data, {}).get('base_url')).toBe('https://default.test/api');
  });

  it('a profile not in the file exists as empty', () => {
    const settings = new Settings({ name: 'new', source: 'flag' }, data, {});
    expect(settings.profileExists).toBe(false);
    expect(settings.get('base_url')).toBeUndefined();
  });
});

describe('clear-text addresses', () => {
  const cli = useInProcess();

  it.each([
    [['--base-url', 'http://api.example.com/api', 'account'], {}],
    [['account'], { CLINIC_BASE_URL: 'http://10.0.0.5/api' }],
    [['config', 'set', 'base_url', 'http://api.example.com/api'], {}],
    [['config', 'set', 'realtime.auth_endpoint', 'http://rt.example.com/auth'], {}],
  ])('%j %j: refused, exit 2, nothing sent', async (argv, extra) => {
    const result = await cli.run(argv, { env: extra });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('must use https');
    expect(cli.seen).toEqual([]);
  });

  it('loopback stays allowed (the sandbox)', async () => {
    const result = await cli.run(['config', 'set', 'base_url', 'http://127.0.0.1:8080/api']);
    expect(result.code).toBe(0);
  });
});

describe('what config shows and says', () => {
  const cli = useInProcess();

  it('config get realtime.auth_endpoint: by default under base_url, said as a default', async () => {
    const result = await cli.run(['config', 'get', 'realtime.auth_endpoint']);
    expect(result).toMatchObject({ code: 0, stdout: 'https://api.clinic.test/api/broadcasting/auth\n' });
    expect(settingsFor('work').describe('realtime.auth_endpoint')).toEqual({
      key: 'realtime.auth_endpoint',
      value: 'https://work.test/api/broadcasting/auth',
      source: 'default',
    });
    expect(settingsFor('bad').describe('realtime.auth_endpoint').value).toBeUndefined();
    // Set, it never asks base_url (which may be unusable until it is mended).
    const broken = new Settings({ name: 'x', source: 'flag' }, data, {
      CLINIC_BASE_URL: 'ftp://nowhere',
      CLINIC_REALTIME_AUTH_ENDPOINT: 'https://rt.example.com/auth',
    });
    expect(broken.describe('realtime.auth_endpoint').value).toBe('https://rt.example.com/auth');
  });

  it('config get of a key set nowhere: exit 1, nothing on stdout, and what the CLI does instead', async () => {
    const output = await cli.run(['config', 'get', 'output']);
    expect([output.code, output.stdout, output.stderr]).toEqual([
      1,
      '',
      'error: output is not set in profile default: commands print a table on a terminal, json otherwise\n',
    ]);
    const key = await cli.run(['config', 'get', 'realtime.key']);
    expect([key.code, key.stdout, key.stderr]).toEqual([
      1,
      '',
      'error: realtime.key is not set in profile default\n',
    ]);
  });

  it('config set of a key the environment overrides: saved, and the override said', async () => {
    const result = await cli.run(['config', 'set', 'tenant', '3']); // CLINIC_TENANT=7 in this shell
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'tenant set in profile default\nnote: CLINIC_TENANT is set in this environment and overrides tenant while it is\n',
    );
    const quiet = await cli.run(['config', 'set', 'scopes', 'openid']);
    expect(quiet.stderr).toBe('scopes set in profile default\n');
  });

  it('tenants use, with CLINIC_TENANT set: the override said', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/account', [
      {
        status: 200,
        body: { success: true, data: { id: 1, tenants: [{ id: 2, name: 'Harbor', slug: 'harbor' }] } },
      },
    ]);
    const result = await cli.run(['tenants', 'use', 'harbor']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'note: CLINIC_TENANT is set in this environment and overrides tenant while it is',
    );
  });
});
