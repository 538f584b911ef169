// Flags and CLINIC_* overrides belong to the selected profile: another profile's settings are its own; and flag >
// environment > profile > default for any mix of them (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConfigData } from '../../../src/core/config/config-file.js';
import { CONFIG_KEYS } from '../../../src/core/config/keys.js';
import { Settings } from '../../../src/core/config/settings.js';

const data: ConfigData = {
  profiles: {
    work: { base_url: 'https://work.test/api', auth_url: 'https://login.work.test', client_id: 'work-cli' },
    home: { base_url: 'https://home.test/api', tenant: '3' },
  },
};

/** Every key overridden from the environment, and base_url, tenant and output by flags. */
const everyEnv = Object.fromEntries(
  CONFIG_KEYS.map((spec) => [spec.env, spec.key === 'realtime.port' || spec.key === 'tenant' ? '9' : 'x']),
);
const env = {
  ...everyEnv,
  CLINIC_BASE_URL: 'https://override.test/api',
  CLINIC_AUTH_URL: 'https://override.test',
  CLINIC_REALTIME_AUTH_ENDPOINT: 'https://override.test/auth',
  CLINIC_OUTPUT: 'csv',
  CLINIC_REALTIME_TLS: 'false',
  CLINIC_CREDENTIAL_STORE: 'file',
};
const flags = { base_url: 'https://flag.test/api', tenant: '5', output: 'json' };
const selected = new Settings({ name: 'work', source: 'env' }, data, env, flags);

describe('Settings.forProfile', () => {
  it('the selected profile keeps its overrides', () => {
    expect(selected.forProfile('work')).toBe(selected);
    expect(selected.get('base_url')).toBe('https://flag.test/api');
    expect(selected.get('auth_url')).toBe('https://override.test');
  });

  it('another profile sees no flag and no CLINIC_* override, for any key', () => {
    const other = selected.forProfile('home');
    expect(other.profile.name).toBe('home');
    for (const setting of other.all()) expect([undefined, 'profile', 'default']).toContain(setting.source);
    expect(other.get('base_url')).toBe('https://home.test/api');
    expect(other.get('auth_url')).toBeUndefined();
    expect(other.get('client_id')).toBeUndefined();
    expect(other.get('tenant')).toBe('3');
  });

  it('own() is the selected profile as its file has it', () => {
    const own = selected.own();
    expect(own.profile).toEqual(selected.profile);
    expect(own.get('base_url')).toBe('https://work.test/api');
    expect(own.get('client_id')).toBe('work-cli');
    for (const setting of own.all()) expect([undefined, 'profile', 'default']).toContain(setting.source);
  });
});

describe('config precedence, for any mix of sources (fast-check)', () => {
  it('flag > environment > profile > default, whichever are present', () => {
    const maybe = fc.option(fc.integer({ min: 1, max: 9999 }).map(String), { nil: undefined });
    fc.assert(
      fc.property(maybe, maybe, maybe, (flag, env, profile) => {
        const data = { profiles: { p: profile === undefined ? {} : { tenant: profile } } };
        const settings = new Settings(
          { name: 'p', source: 'flag' },
          data,
          env === undefined ? {} : { CLINIC_TENANT: env },
          { tenant: flag },
        );
        const described = settings.describe('tenant');
        expect(described.value).toBe(flag ?? env ?? profile);
        expect(described.source).toBe(
          flag !== undefined
            ? 'flag'
            : env !== undefined
              ? 'env'
              : profile !== undefined
                ? 'profile'
                : undefined,
        );
        expect(settings.get('scopes')).toBe('openid *'); // the default when nothing else says
      }),
    );
  });
});
