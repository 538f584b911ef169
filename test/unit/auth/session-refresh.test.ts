// When the session refreshes an OAuth sign-in: before expiry (with a skew), once after a 401, never for other tokens.
import { describe, expect, it } from 'vitest';
import type { StoredCredentials } from '../../../src/core/auth/credential-store.js';
import { EXPIRY_SKEW_MS, expiresSoon } from '../../../src/core/auth/expiry.js';
import { Session } from '../../../src/core/auth/session.js';
import { Settings } from '../../../src/core/config/settings.js';
import { AuthError, UsageError } from '../../../src/core/errors.js';
import { FAKE_START, fakeClock } from '../../helpers/fake-clock.js';

function setup(credentials: StoredCredentials, env: Record<string, string> = {}) {
  const settings = new Settings(
    { name: 'p', source: 'flag' },
    { profiles: { p: { credential_store: 'file' } } },
    env,
  );
  const calls: { seen: string; force: boolean }[] = [];
  let stored = credentials;
  const store = {
    kind: 'file' as const,
    location: 'memory',
    get: async () => stored,
    set: async (_p: string, c: StoredCredentials) => {
      stored = c;
    },
    delete: async () => true,
  };
  const session = new Session(
    settings,
    env,
    () => store,
    fakeClock(),
    async (seen, force) => {
      calls.push({ seen: seen.access_token, force });
      stored = {
        ...stored,
        access_token: `fresh-${calls.length}`,
        expires_at: new Date(FAKE_START + 3_600_000).toISOString(),
      };
      return stored;
    },
  );
  return { session, calls };
}

const oauth = (offsetMs: number): StoredCredentials => ({
  kind: 'oauth',
  access_token: 'old',
  refresh_token: 'r1',
  expires_at: new Date(FAKE_START + offsetMs).toISOString(),
});

describe('Session refresh', () => {
  it('uses a token that is far from expiry as is', async () => {
    const { session, calls } = setup(oauth(3_600_000));
    expect(await session.accessToken()).toBe('old');
    expect(calls).toEqual([]);
  });

  it('refreshes within the skew before expiry', async () => {
    const { session, calls } = setup(oauth(EXPIRY_SKEW_MS - 1));
    expect(await session.accessToken()).toBe('fresh-1');
    expect(calls).toEqual([{ seen: 'old', force: false }]);
  });

  it('refreshes once after a 401 and hands out the new token', async () => {
    const { session, calls } = setup(oauth(3_600_000));
    expect(await session.renewAfterRejection('old')).toBe(true);
    expect(await session.accessToken()).toBe('fresh-1');
    expect(calls).toHaveLength(1);
  });

  it('never renews a personal access token or CLINIC_TOKEN', async () => {
    const pat = setup({ kind: 'pat', access_token: 'pat' });
    expect(await pat.session.renewAfterRejection('pat')).toBe(false);
    const env = setup(oauth(3_600_000), { CLINIC_TOKEN: 'env' });
    expect(await env.session.accessToken()).toBe('env');
    expect(await env.session.renewAfterRejection('env')).toBe(false);
    expect(env.calls).toEqual([]);
  });

  it('forceRefresh refreshes with force; refuses a personal access token', async () => {
    const { session, calls } = setup(oauth(3_600_000));
    expect((await session.forceRefresh()).access_token).toBe('fresh-1');
    expect(calls).toEqual([{ seen: 'old', force: true }]);
    await expect(setup({ kind: 'pat', access_token: 'pat' }).session.forceRefresh()).rejects.toBeInstanceOf(
      UsageError,
    );
  });

  it('an expired token without a refresh token is an AuthError saying run: clinic login', async () => {
    const { session } = setup({
      kind: 'oauth',
      access_token: 'old',
      expires_at: new Date(FAKE_START - 1).toISOString(),
    });
    const error = await session.accessToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).hint).toBe('run: clinic --profile p login');
  });

  it('expiresSoon honours the skew', () => {
    expect(expiresSoon(oauth(EXPIRY_SKEW_MS + 1000), FAKE_START)).toBe(false);
    expect(expiresSoon(oauth(EXPIRY_SKEW_MS), FAKE_START)).toBe(true);
    expect(expiresSoon({ kind: 'pat', access_token: 'x' }, FAKE_START)).toBe(false);
  });
});

describe('Session and an unusable keychain', () => {
  it('turns a keychain failure into an AuthError (exit 3) with a way on', async () => {
    const { KeychainUnavailableError } = await import('../../../src/core/auth/credential-store.js');
    const settings = new Settings(
      { name: 'p', source: 'flag' },
      { profiles: { p: { credential_store: 'keychain' } } },
      {},
    );
    const failing = {
      kind: 'keychain' as const,
      location: 'keychain',
      get: async () => {
        throw new KeychainUnavailableError('the keychain did not answer within 3s');
      },
      set: async () => undefined,
      delete: async () => false,
    };
    const session = new Session(settings, {}, () => failing, fakeClock());
    const error = await session.accessToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).message).toContain('did not answer within 3s');
    expect((error as AuthError).hint).toContain('CLINIC_TOKEN');
  });
});

describe('the refresh margin', () => {
  it('is half the lifetime of a short-lived token', () => {
    const shortLived = (ageMs: number): StoredCredentials => ({
      kind: 'oauth',
      access_token: 'a',
      obtained_at: new Date(FAKE_START - ageMs).toISOString(),
      expires_at: new Date(FAKE_START - ageMs + 10_000).toISOString(),
    });
    expect(expiresSoon(shortLived(0), FAKE_START)).toBe(false);
    expect(expiresSoon(shortLived(4_999), FAKE_START)).toBe(false);
    expect(expiresSoon(shortLived(5_000), FAKE_START)).toBe(true);
  });
});

describe('one refresh at a time', () => {
  /** A session whose refresher answers only when told: each refresh asked for, with a new token or a failure. */
  function gated(credentials: StoredCredentials) {
    const settings = new Settings(
      { name: 'p', source: 'flag' },
      { profiles: { p: { credential_store: 'file' } } },
      {},
    );
    const store = {
      kind: 'file' as const,
      location: 'memory',
      get: async () => credentials,
      set: async () => undefined,
      delete: async () => true,
    };
    const pending: ((failure?: Error) => void)[] = [];
    const session = new Session(
      settings,
      {},
      () => store,
      fakeClock(),
      (seen) => {
        const n = pending.length + 1;
        return new Promise((resolve, reject) =>
          pending.push((failure) =>
            failure
              ? reject(failure)
              : resolve({ ...seen, access_token: `fresh-${n}`, expires_at: undefined }),
          ),
        );
      },
    );
    /** Lets the callers reach the refresher, then answers every refresh asked for. */
    const settle = async (failure?: Error) => {
      await new Promise((resolve) => setImmediate(resolve));
      for (const answer of pending) answer(failure);
    };
    return { session, calls: () => pending.length, settle };
  }

  it('requests that find the token expired, or answered 401, together share one refresh', async () => {
    const { session, calls, settle } = gated(oauth(-1));
    const all = Promise.all([
      session.accessToken(),
      session.accessToken(),
      session.renewAfterRejection('old'),
    ]);
    await settle();
    expect(await all).toEqual(['fresh-1', 'fresh-1', true]);
    expect(calls()).toBe(1);
    // A 401 for a request sent with the token replaced meanwhile: the new one is tried, nothing refreshed.
    expect(await session.renewAfterRejection('old')).toBe(true);
    expect(await session.accessToken()).toBe('fresh-1');
    expect(calls()).toBe(1);
  });

  it('a refused refresh fails each of them, asked of the server once', async () => {
    const { session, calls, settle } = gated(oauth(3_600_000));
    const refused = new AuthError('refused');
    const all = [session.renewAfterRejection('old'), session.renewAfterRejection('old')];
    await settle(refused);
    expect(await Promise.allSettled(all)).toEqual([
      { status: 'rejected', reason: refused },
      { status: 'rejected', reason: refused },
    ]);
    expect(calls()).toBe(1);
  });
});
