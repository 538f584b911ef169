// A stored sign-in and the servers it belongs to: the session never hands the access token out for another base_url,
// a refresh never goes to another auth_url, old sign-ins are bound to the profile's own settings on first use.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adoptLegacy, recordBinding, signInOrigins } from '../../../src/core/auth/binding.js';
import {
  type CredentialStore,
  parseCredentials,
  type StoredCredentials,
} from '../../../src/core/auth/credential-store.js';
import { refreshCredentials } from '../../../src/core/auth/refresh.js';
import { Session } from '../../../src/core/auth/session.js';
import type { ConfigData } from '../../../src/core/config/config-file.js';
import { Settings } from '../../../src/core/config/settings.js';
import { AuthError, UsageError } from '../../../src/core/errors.js';
import { FAKE_START, fakeClock } from '../../helpers/fake-clock.js';
import { useInProcess } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { queueReplies } from '../../helpers/mock-api.js';

const HOME = { base_url: 'https://api.clinic.test/api', auth_url: 'https://login.clinic.test' };
const BOUND = { base_url: 'https://api.clinic.test', auth_url: 'https://login.clinic.test' };

function memoryStore(entry?: StoredCredentials) {
  const writes: StoredCredentials[] = [];
  let current = entry;
  const store: CredentialStore = {
    kind: 'file',
    location: 'memory',
    get: async () => current,
    set: async (_profile, credentials) => {
      writes.push(credentials);
      current = credentials;
    },
    delete: async () => true,
  };
  return { store, writes, current: () => current };
}

function settingsOf(
  profile: Record<string, unknown>,
  env: Record<string, string> = {},
  flags: Record<string, string> = {},
) {
  const data: ConfigData = { profiles: { p: { credential_store: 'file', ...profile } } };
  return new Settings({ name: 'p', source: 'flag' }, data, env, flags);
}

const signIn = (origins?: StoredCredentials['origins']): StoredCredentials => ({
  kind: 'oauth',
  access_token: 'access',
  refresh_token: 'refresh',
  expires_at: new Date(FAKE_START + 3_600_000).toISOString(),
  ...(origins ? { origins } : {}),
});

function sessionOf(settings: Settings, entry: StoredCredentials, env: Record<string, string> = {}) {
  const memory = memoryStore(entry);
  const kept: StoredCredentials[] = [];
  const session = new Session(
    settings,
    env,
    () => memory.store,
    fakeClock(),
    undefined,
    async (bound) => {
      kept.push(bound);
    },
  );
  return { session, kept };
}

describe('signInOrigins', () => {
  it('keeps origins only; auth_url defaults to the origin of base_url', () => {
    expect(signInOrigins(settingsOf(HOME))).toEqual(BOUND);
    expect(signInOrigins(settingsOf({ base_url: 'http://127.0.0.1:8080/api' }))).toEqual({
      base_url: 'http://127.0.0.1:8080',
      auth_url: 'http://127.0.0.1:8080',
    });
  });
});

describe('the access token and base_url', () => {
  const cases: [string, Settings, StoredCredentials['origins']][] = [
    ['--base-url', settingsOf(HOME, {}, { base_url: 'https://evil.test/api' }), BOUND],
    ['CLINIC_BASE_URL', settingsOf(HOME, { CLINIC_BASE_URL: 'https://evil.test/api' }), BOUND],
    ['an edited profile', settingsOf({ ...HOME, base_url: 'https://evil.test/api' }), BOUND],
    ['another port', settingsOf({ ...HOME, base_url: 'https://api.clinic.test:8443/api' }), BOUND],
    [
      'another loopback name',
      settingsOf({ base_url: 'http://localhost:8080/api' }),
      { base_url: 'http://127.0.0.1:8080', auth_url: 'http://127.0.0.1:8080' },
    ],
  ];
  it.each(cases)('%s: AuthError naming both addresses, no token', async (_name, settings, origins) => {
    const error = await sessionOf(settings, signIn(origins))
      .session.accessToken()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    const { message, hint } = error as AuthError;
    expect(message).toContain(origins?.base_url);
    expect(message).toContain(new URL(settings.get('base_url') as string).origin);
    expect(hint).toMatch(/^run: clinic --profile p .*login \(to sign in at /);
  });

  it('the same origin (another path) is the same server', async () => {
    const settings = settingsOf({ ...HOME, base_url: 'https://api.clinic.test/other/api' });
    expect(await sessionOf(settings, signIn(BOUND)).session.accessToken()).toBe('access');
  });

  it('CLINIC_TOKEN is not bound', async () => {
    const settings = settingsOf(HOME, { CLINIC_BASE_URL: 'https://anywhere.test/api' });
    const env = { CLINIC_TOKEN: 'mine' };
    expect(await sessionOf(settings, signIn(BOUND), env).session.accessToken()).toBe('mine');
  });

  it.each(['', ' ', '\n\t'])('CLINIC_TOKEN=%j is a usage error', (value) => {
    expect(() => sessionOf(settingsOf(HOME), signIn(BOUND), { CLINIC_TOKEN: value })).toThrow(UsageError);
  });
});

describe('sign-ins stored before origins were recorded', () => {
  it("are bound to the profile's own base_url and auth_url, never to an override, and kept so", async () => {
    const settings = settingsOf(HOME, {
      CLINIC_BASE_URL: 'https://evil.test/api',
      CLINIC_AUTH_URL: 'https://evil.test',
    });
    const { session, kept } = sessionOf(settings, signIn());
    await expect(session.accessToken()).rejects.toThrow(/made for https:\/\/api\.clinic\.test.*evil\.test/);
    expect(kept.map((c) => c.origins)).toEqual([BOUND]);
  });

  it('a profile without its own base_url leaves them unbound: sent nowhere', async () => {
    const settings = settingsOf({}, { CLINIC_BASE_URL: 'https://evil.test/api' });
    const error = await sessionOf(settings, signIn())
      .session.accessToken()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toContain('records no base_url');
  });

  it('origins of the wrong type in the stored entry count as absent', () => {
    const parsed = parseCredentials(JSON.stringify({ access_token: 't', origins: 'https://evil.test' }));
    expect(parsed?.origins).toBeUndefined();
    const odd = parseCredentials(
      JSON.stringify({ access_token: 't', origins: { base_url: 1, auth_url: 'x' } }),
    );
    expect(odd?.origins).toEqual({ auth_url: 'x' });
    expect(adoptLegacy(odd as StoredCredentials, settingsOf(HOME)).origins).toEqual({
      base_url: BOUND.base_url,
      auth_url: 'x',
    });
  });

  it('recordBinding writes only over the very tokens it bound (a peer may have rotated them)', async () => {
    const lockDir = await tempDir('clinic-binding-');
    const rotated = memoryStore({ ...signIn(), access_token: 'rotated-by-a-peer' });
    await recordBinding(
      { profile: 'p', store: rotated.store, lock: join(lockDir, 'p.refresh') },
      { ...signIn(), origins: BOUND },
    );
    expect(rotated.writes).toEqual([]);
    const same = memoryStore(signIn());
    await recordBinding(
      { profile: 'p', store: same.store, lock: join(lockDir, 'p.refresh') },
      { ...signIn(), origins: BOUND },
    );
    expect(same.current()?.origins).toEqual(BOUND);
  });
});

describe('the refresh token and auth_url', () => {
  async function refreshWith(settings: Settings, entry: StoredCredentials) {
    const lockDir = await tempDir('clinic-refresh-');
    const memory = memoryStore(entry);
    let asked = 0;
    const error = await refreshCredentials(
      {
        profile: 'p',
        store: memory.store,
        lock: join(lockDir, 'p.refresh'),
        server: async () => {
          asked += 1;
          throw new Error('the sign-in server must not be contacted');
        },
        clock: fakeClock(),
        loginHint: 'run: clinic --profile p login',
        settings,
      },
      entry,
      true,
    ).catch((e: unknown) => e);
    return { error, asked };
  }

  it.each([
    ['CLINIC_AUTH_URL', settingsOf(HOME, { CLINIC_AUTH_URL: 'https://evil.test' })],
    ['an edited auth_url', settingsOf({ ...HOME, auth_url: 'https://evil.test/realms/x' })],
    [
      'CLINIC_BASE_URL with auth_url unset',
      settingsOf({ base_url: HOME.base_url }, { CLINIC_BASE_URL: 'https://evil.test/api' }),
    ],
  ])('%s elsewhere: refused before the server is looked up', async (_name, settings) => {
    const { error, asked } = await refreshWith(settings, signIn(BOUND));
    expect(asked).toBe(0);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toContain('not refreshed');
    expect((error as Error).message).toContain('https://evil.test');
  });

  it("an old sign-in is refreshed only at the profile's own auth_url", async () => {
    const { error, asked } = await refreshWith(
      settingsOf(HOME, { CLINIC_AUTH_URL: 'https://evil.test' }),
      signIn(),
    );
    expect(asked).toBe(0);
    expect(error).toBeInstanceOf(AuthError);
  });

  it('the right server is asked (and here fails)', async () => {
    const { error, asked } = await refreshWith(settingsOf(HOME), signIn(BOUND));
    expect(asked).toBe(1);
    expect((error as Error).message).toContain('must not be contacted');
  });
});

describe('login in-process', () => {
  const cli = useInProcess();

  it('a login that lands in another account than before says so', async () => {
    const account = (name: string) => ({
      status: 200,
      body: { success: true, data: { id: 1, name, email: `${name}@x.test` } },
    });
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/account', [
      account('ada'),
      account('ada'),
      account('bob'),
    ]);
    const login = (token: string) =>
      cli.run(['login', '--with-token', '--insecure-storage'], { env: { CLINIC_TOKEN: '' }, stdin: token });
    expect((await login('token-of-ada-1')).stderr).not.toContain('warning');
    expect((await login('token-of-ada-2')).stderr).not.toContain('warning');
    const third = await login('token-of-bob-1');
    expect(third.code).toBe(0);
    expect(third.stderr).toContain(
      'warning: profile default was signed in as ada <ada@x.test> before; it is now bob <bob@x.test>',
    );
  });
});
