// The session: CLINIC_TOKEN first and never from a store; otherwise the recorded store's sign-in.
import { describe, expect, it } from 'vitest';
import type {
  CredentialStore,
  StoredCredentials,
  StoreKind,
} from '../../../src/core/auth/credential-store.js';
import { Session } from '../../../src/core/auth/session.js';
import type { ConfigData } from '../../../src/core/config/config-file.js';
import { Settings } from '../../../src/core/config/settings.js';
import { AuthError, UsageError } from '../../../src/core/errors.js';
import { FAKE_START, fakeClock } from '../../helpers/fake-clock.js';

function memoryStore(kind: StoreKind, entries: Record<string, StoredCredentials> = {}) {
  const reads: string[] = [];
  const store: CredentialStore = {
    kind,
    location: kind,
    async get(profile) {
      reads.push(profile);
      return entries[profile];
    },
    async set(profile, credentials) {
      entries[profile] = credentials;
    },
    async delete(profile) {
      return delete entries[profile];
    },
  };
  return { store, reads };
}

function sessionFor(
  profile: Record<string, unknown>,
  env: Record<string, string | undefined>,
  stores: StoreKind[] = [],
) {
  const data: ConfigData = { profiles: { default: profile } };
  const settings = new Settings({ name: 'default', source: 'default' }, data, env);
  const opened: StoreKind[] = [];
  const file = memoryStore('file', { default: { kind: 'pat', access_token: 'from-file' } });
  const keychain = memoryStore('keychain', {
    default: {
      kind: 'oauth',
      access_token: 'from-keychain',
      refresh_token: 'r',
      expires_at: new Date(FAKE_START + 3_600_000).toISOString(),
    },
  });
  const session = new Session(
    settings,
    env,
    (kind) => {
      opened.push(kind);
      if (!stores.includes(kind)) throw new Error(`store ${kind} should not be opened`);
      return kind === 'file' ? file.store : keychain.store;
    },
    fakeClock(),
  );
  return { session, opened, file, keychain };
}

describe('Session', () => {
  it('CLINIC_TOKEN wins and no store is ever opened', async () => {
    const s = sessionFor({ credential_store: 'keychain' }, { CLINIC_TOKEN: ' env-token \n' });
    expect(await s.session.accessToken()).toBe('env-token');
    expect(s.opened).toEqual([]);
  });

  it('CLINIC_TOKEN is never renewed', async () => {
    const s = sessionFor({}, { CLINIC_TOKEN: 'env-token' });
    expect(await s.session.renewAfterRejection('env-token')).toBe(false);
  });

  it('without a recorded store: AuthError "not logged in" with a hint', async () => {
    const s = sessionFor({}, {});
    const error = await s.session.accessToken().catch((e) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toContain('not logged in');
    expect(error.message).toContain('default');
    expect(error.hint).toContain('CLINIC_TOKEN');
    expect(s.opened).toEqual([]);
  });

  it('a blank CLINIC_TOKEN is a usage error, never a fall-back to the store', () => {
    expect(() => sessionFor({ credential_store: 'file' }, { CLINIC_TOKEN: '   ' }, ['file'])).toThrow(
      UsageError,
    );
  });

  it('reads the token from the store the profile records', async () => {
    const s = sessionFor({ credential_store: 'file' }, {}, ['file']);
    expect(await s.session.accessToken()).toBe('from-file');
    expect(s.opened).toEqual(['file']);
  });

  it('CLINIC_CREDENTIAL_STORE overrides the recorded store', async () => {
    const s = sessionFor({ credential_store: 'file' }, { CLINIC_CREDENTIAL_STORE: 'keychain' }, ['keychain']);
    expect(await s.session.accessToken()).toBe('from-keychain');
  });

  it('a recorded store without an entry for the profile is "not logged in"', async () => {
    const s = sessionFor({ credential_store: 'file' }, {}, ['file']);
    await s.file.store.delete('default');
    await expect(s.session.accessToken()).rejects.toThrow(/not logged in/);
  });

  it('reads the store once and caches it', async () => {
    const s = sessionFor({ credential_store: 'file' }, {}, ['file']);
    await s.session.accessToken();
    await s.session.accessToken();
    expect(s.file.reads).toEqual(['default']);
  });

  it('an expired token without a refresh token is an AuthError', async () => {
    const s = sessionFor({ credential_store: 'file' }, {}, ['file']);
    await s.file.store.set('default', {
      kind: 'pat',
      access_token: 'old',
      expires_at: new Date(FAKE_START - 1).toISOString(),
    });
    const error = await s.session.accessToken().catch((e) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toContain('expired');
  });
});
