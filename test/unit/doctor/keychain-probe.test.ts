// doctor's keychain check writes, reads back and deletes a throwaway entry, so "usable" means login can store a
// sign-in there; an unusable keychain is told in plain words, by doctor and by login alike.
import { describe, expect, it } from 'vitest';
import { Session } from '../../../src/core/auth/session.js';
import { KEYCHAIN_SERVICE, KeychainStore, type KeytarLoader } from '../../../src/core/auth/keychain-store.js';
import { systemClock } from '../../../src/core/clock.js';
import { Settings } from '../../../src/core/config/settings.js';
import type { DoctorDeps, Findings } from '../../../src/core/doctor/check.js';
import { keychainCheck } from '../../../src/core/doctor/credential-checks.js';
import { runInProcess } from '../../helpers/in-process.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('clinic-keychain-probe-');

/** The refusal gnome-keyring's Secret Service gives, as @napi-rs/keyring reports it. */
const ACCESS_DENIED =
  'Platform secure storage failure: org.freedesktop.DBus.Error.AccessDenied: Prohibited by policy\nat napi';
const LIBRARY_WORDS = /napi|DBus|freedesktop|Platform secure storage|Prohibited/;

type Keytar = Awaited<ReturnType<KeytarLoader>>;

/** An in-memory keychain; `over` replaces any of its calls. */
function fakeKeychain(over: Partial<Keytar> = {}) {
  const items = new Map<string, string>();
  const accounts: string[] = [];
  const keytar: Keytar = {
    async getPassword(service, account) {
      return items.get(`${service}/${account}`) ?? null;
    },
    async setPassword(service, account, password) {
      accounts.push(account);
      items.set(`${service}/${account}`, password);
    },
    async deletePassword(service, account) {
      return items.delete(`${service}/${account}`);
    },
    ...over,
  };
  return { keytar, items, accounts, load: (async () => keytar) as KeytarLoader };
}

const refuse = async () => {
  throw new Error(ACCESS_DENIED);
};

/** Runs doctor's keychain check against a KeychainStore on the given fake, for a profile that keeps its tokens there. */
async function check(
  load: KeytarLoader,
  options: { timeoutMs?: number; debug?: boolean; kind?: string } = {},
) {
  const store = new KeychainStore(load, options.timeoutMs ?? 1000);
  const profile = { credential_store: options.kind ?? 'keychain' };
  const settings = new Settings({ name: 'work', source: 'flag' }, { profiles: { work: profile } }, {});
  const session = new Session(settings, {}, () => store, systemClock);
  const deps = {
    env: {},
    clock: systemClock,
    version: '0.0.0',
    globals: { requestTimeoutMs: 60_000, debug: options.debug ?? false },
    session: async () => session,
    store: () => store,
  } as unknown as DoctorDeps;
  const found: Findings = { answers: 0, settings };
  const started = Date.now();
  const result = await keychainCheck.run(deps, found);
  return { result, found, ms: Date.now() - started };
}

describe("doctor's keychain check", () => {
  it('is usable only after a throwaway entry was written, read back and deleted', async () => {
    const fake = fakeKeychain();
    const { result } = await check(fake.load);
    expect(result.status).toBe('ok');
    expect(result.detail).toMatch(/^usable: /);
    expect(fake.accounts).toHaveLength(1);
    expect(fake.accounts[0]).toMatch(/^clinic-doctor-probe-[0-9a-f-]{36}$/);
    expect(fake.items.size).toBe(0);
    // A fresh account each time, never a profile's.
    await check(fake.load);
    expect(new Set(fake.accounts).size).toBe(2);
  });

  it('keeps the profile’s own entry as it was', async () => {
    const fake = fakeKeychain();
    fake.items.set(`${KEYCHAIN_SERVICE}/work`, JSON.stringify({ kind: 'pat', access_token: 't' }));
    const { result } = await check(fake.load);
    expect(result.detail).toContain('holds a sign-in for profile work');
    expect([...fake.items.keys()]).toEqual([`${KEYCHAIN_SERVICE}/work`]);
  });

  it('is not usable when the keychain refuses the write (AccessDenied), in plain words', async () => {
    const fake = fakeKeychain({ setPassword: refuse });
    const { result, found } = await check(fake.load);
    expect(result.status).toBe('fail');
    expect(result.detail).toBe(
      "not usable: cannot store a test entry in the keychain: access was denied; this profile's tokens are there",
    );
    expect(result.detail).not.toMatch(LIBRARY_WORDS);
    expect(result.fix).toMatch(/--insecure-storage.*CLINIC_TOKEN/);
    expect(found.keychainBroken).toBe('cannot store a test entry in the keychain: access was denied');
  });

  it('a refusing keychain is only a fact when the profile keeps its tokens in the file: not needed', async () => {
    const { result } = await check(fakeKeychain({ setPassword: refuse }).load, { kind: 'file' });
    expect(result.status).toBe('ok');
    expect(result.detail).toBe(
      'not available (cannot store a test entry in the keychain: access was denied); ' +
        'not needed: this profile keeps its tokens in the file store',
    );
  });

  it('gives the library’s own words under --debug only', async () => {
    const { result } = await check(fakeKeychain({ setPassword: refuse }).load, { debug: true });
    expect(result.detail).toContain('access was denied (the keychain library said: Platform secure storage');
  });

  it('is not usable when the entry read back is another, and still deletes it', async () => {
    const fake = fakeKeychain({ getPassword: async () => 'something else' });
    const { result } = await check(fake.load);
    expect(result.status).toBe('fail');
    expect(result.detail).toContain(
      'the keychain gave back something other than the test entry written to it',
    );
    expect(fake.items.size).toBe(0);
  });

  it('is not usable when the read back is refused, and still deletes the entry', async () => {
    const fake = fakeKeychain({ getPassword: refuse });
    const { result } = await check(fake.load);
    expect(result.detail).toContain('cannot read a test entry back from the keychain: access was denied');
    expect(fake.items.size).toBe(0);
  });

  it('is not usable when the entry cannot be deleted', async () => {
    const fake = fakeKeychain({ deletePassword: refuse });
    const { result } = await check(fake.load);
    expect(result.status).toBe('fail');
    expect(result.detail).toContain('cannot delete a test entry from the keychain: access was denied');
  });

  it('is not usable when the keychain does not answer, within the time limit, and tries to delete the entry', async () => {
    const fake = fakeKeychain();
    let release: () => void = () => {};
    const hung = new Promise<void>((resolve) => {
      release = resolve;
    });
    const set = fake.keytar.setPassword;
    fake.keytar.setPassword = async (...args) => {
      await set(...args); // the entry is made, the answer never comes (until released)
      await hung;
    };
    const { result, ms } = await check(fake.load, { timeoutMs: 200 });
    expect(result.status).toBe('fail');
    expect(result.detail).toContain('the keychain did not answer within 0.2s');
    expect(ms).toBeLessThan(3000);
    release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.items.size).toBe(0); // once it answered, the entry was deleted
  });

  it('reports a keychain locked or absent in words, without D-Bus names', async () => {
    for (const [text, words] of [
      ['org.freedesktop.Secret.Error.IsLocked: collection is locked', 'the keychain is locked'],
      [
        'Platform secure storage failure: org.freedesktop.DBus.Error.ServiceUnknown: The name is not activatable',
        'no keychain service (Secret Service) can be reached',
      ],
      ['Cannot autolaunch D-Bus without X11 $DISPLAY', 'no keychain service (Secret Service) can be reached'],
      ['something unheard of', 'the keychain reported an error'],
    ]) {
      const fake = fakeKeychain({
        setPassword: async () => {
          throw new Error(text);
        },
      });
      const { result } = await check(fake.load);
      expect(result.detail).toBe(
        `not usable: cannot store a test entry in the keychain: ${words}; this profile's tokens are there`,
      );
    }
  });
});

describe('login when the keychain refuses', () => {
  it('says so in one sentence with the two ways on, and stores nothing (exit 3)', async () => {
    const fake = fakeKeychain({ setPassword: refuse });
    const result = await runInProcess(['--profile', 'work', 'login', '--with-token'], {
      env: { CLINIC_CONFIG_DIR: tmp.path },
      stdin: 'token\n',
      deps: { keytar: fake.load },
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: the OS keychain cannot keep the sign-in (access was denied), so nothing was stored: log in again ' +
        'with --insecure-storage (or CLINIC_CREDENTIAL_STORE=file) to keep the token in a 0600 file under the ' +
        'config directory, or set CLINIC_TOKEN for scripts and cron jobs\n',
    );
    expect(fake.items.size).toBe(0);
  });

  it('names the time limit when the keychain does not answer', async () => {
    const fake = fakeKeychain({ setPassword: () => new Promise<void>(() => {}) });
    const result = await runInProcess(['--profile', 'work', 'login', '--with-token'], {
      env: { CLINIC_CONFIG_DIR: tmp.path },
      stdin: 'token\n',
      deps: { keytar: fake.load },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /^error: the OS keychain cannot keep the sign-in \(it did not answer within 3s\), so nothing was stored: .*--insecure-storage.*CLINIC_TOKEN/,
    );
  }, 10_000);
});
