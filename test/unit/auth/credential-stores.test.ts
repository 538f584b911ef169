// Where tokens live: the 0600 file store, the keychain store with an injected keytar, and the login choice.
import { readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  KeychainUnavailableError,
  parseCredentials,
  type StoredCredentials,
} from '../../../src/core/auth/credential-store.js';
import { FileStore } from '../../../src/core/auth/file-store.js';
import {
  KEYCHAIN_SERVICE,
  keychainMissingReason,
  KeychainStore,
  type KeytarLoader,
} from '../../../src/core/auth/keychain-store.js';
import { storeForLogin } from '../../../src/core/auth/store-choice.js';
import { UnsafeFileError } from '../../../src/core/config/private-file.js';
import { UsageError } from '../../../src/core/errors.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('clinic-creds-');

const creds = (token: string): StoredCredentials => ({
  kind: 'oauth',
  access_token: token,
  refresh_token: `r-${token}`,
  expires_at: '2030-01-01T00:00:00.000Z',
  scopes: ['openid', '*'],
});

describe('FileStore', () => {
  it('round-trips per profile, with the file at mode 0600', async () => {
    const path = join(tmp.path, 'credentials.json');
    const store = new FileStore(path);
    expect(await store.get('default')).toBeUndefined();
    await store.set('default', creds('a'));
    await store.set('work', creds('b'));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await store.get('default')).toEqual(creds('a'));
    expect(await new FileStore(path).get('work')).toEqual(creds('b'));
    expect(await store.delete('default')).toBe(true);
    expect(await store.delete('default')).toBe(false);
    expect(await store.get('default')).toBeUndefined();
    expect(await store.get('work')).toEqual(creds('b'));
  });

  it('creates its directory 0700', async () => {
    const dir = join(tmp.path, 'sub');
    await new FileStore(join(dir, 'credentials.json')).set('p', creds('a'));
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it('says it is plain text', () => {
    expect(new FileStore('/x/credentials.json').location).toContain('plain text');
  });

  it('refuses a symlinked credentials file and leaves its target untouched', async () => {
    const target = join(tmp.path, 'target.txt');
    await writeFile(target, 'keep me');
    const path = join(tmp.path, 'credentials.json');
    await symlink(target, path);
    const store = new FileStore(path);
    await expect(store.set('p', creds('a'))).rejects.toBeInstanceOf(UnsafeFileError);
    await expect(store.get('p')).rejects.toBeInstanceOf(UnsafeFileError);
    expect(await readFile(target, 'utf8')).toBe('keep me');
  });

  it('an entry without an access token is no sign-in', async () => {
    const path = join(tmp.path, 'credentials.json');
    await writeFile(path, JSON.stringify({ p: { kind: 'pat' } }), { mode: 0o600 });
    expect(await new FileStore(path).get('p')).toBeUndefined();
  });
});

function fakeKeytar() {
  const items = new Map<string, string>();
  const calls: string[] = [];
  return {
    items,
    calls,
    keytar: {
      async getPassword(service: string, account: string) {
        calls.push(`get ${service} ${account}`);
        return items.get(`${service}/${account}`) ?? null;
      },
      async setPassword(service: string, account: string, password: string) {
        calls.push(`set ${service} ${account}`);
        items.set(`${service}/${account}`, password);
      },
      async deletePassword(service: string, account: string) {
        calls.push(`delete ${service} ${account}`);
        return items.delete(`${service}/${account}`);
      },
    },
  };
}

describe('KeychainStore', () => {
  it('round-trips through keytar under service clinic-cli, account = profile', async () => {
    const fake = fakeKeytar();
    const store = new KeychainStore(async () => fake.keytar, 1000);
    expect(await store.get('work')).toBeUndefined();
    await store.set('work', creds('a'));
    expect(fake.items.has(`${KEYCHAIN_SERVICE}/work`)).toBe(true);
    expect(KEYCHAIN_SERVICE).toBe('clinic-cli');
    expect(await store.get('work')).toEqual(creds('a'));
    expect(await store.delete('work')).toBe(true);
    expect(await store.get('work')).toBeUndefined();
    expect(fake.calls[1]).toBe('set clinic-cli work');
  });

  it('loads keytar once', async () => {
    let loads = 0;
    const fake = fakeKeytar();
    const store = new KeychainStore(async () => {
      loads++;
      return fake.keytar;
    });
    await store.get('a');
    await store.get('b');
    expect(loads).toBe(1);
  });

  it('a loader that throws gives KeychainUnavailableError', async () => {
    const loader: KeytarLoader = async () => {
      throw new Error('Cannot find module keytar');
    };
    const store = new KeychainStore(loader, 1000);
    const error = await store.get('p').catch((e) => e);
    expect(error).toBeInstanceOf(KeychainUnavailableError);
    // Told in plain words; the library's own text is kept for --debug.
    expect(error.message).toBe('cannot read the keychain: the keychain reported an error');
    expect(error.detail).toBe('Cannot find module keytar');
    await expect(store.set('p', creds('a'))).rejects.toBeInstanceOf(KeychainUnavailableError);
  });

  it('a keytar call that fails gives KeychainUnavailableError in words, its first line as the detail', async () => {
    const fake = fakeKeytar();
    fake.keytar.getPassword = async () => {
      throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY\nmore');
    };
    const error = await new KeychainStore(async () => fake.keytar, 1000).get('p').catch((e) => e);
    expect(error).toBeInstanceOf(KeychainUnavailableError);
    expect(error.message).toBe(
      'cannot read the keychain: no keychain service (Secret Service) can be reached',
    );
    expect(error.detail).toBe('Cannot autolaunch D-Bus without X11 $DISPLAY');
  });

  it('a keytar call that never resolves gives KeychainUnavailableError within the timeout', async () => {
    const fake = fakeKeytar();
    fake.keytar.setPassword = () => new Promise<void>(() => {});
    const store = new KeychainStore(async () => fake.keytar, 50);
    const started = Date.now();
    const error = await store.set('p', creds('a')).catch((e) => e);
    expect(error).toBeInstanceOf(KeychainUnavailableError);
    expect(error.message).toContain('did not answer');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a loader that never resolves also times out', async () => {
    const store = new KeychainStore(() => new Promise(() => {}), 50);
    await expect(store.get('p')).rejects.toBeInstanceOf(KeychainUnavailableError);
  });
});

describe('storeForLogin', () => {
  it('keychain by default', () => {
    expect(storeForLogin(false, {})).toBe('keychain');
    expect(storeForLogin(false, { CLINIC_CREDENTIAL_STORE: '' })).toBe('keychain');
  });

  it('file only when chosen: --insecure-storage or CLINIC_CREDENTIAL_STORE=file', () => {
    expect(storeForLogin(true, {})).toBe('file');
    expect(storeForLogin(false, { CLINIC_CREDENTIAL_STORE: 'file' })).toBe('file');
    expect(storeForLogin(true, { CLINIC_CREDENTIAL_STORE: 'file' })).toBe('file');
  });

  it('CLINIC_CREDENTIAL_STORE=keychain forces the keychain', () => {
    expect(storeForLogin(false, { CLINIC_CREDENTIAL_STORE: 'keychain' })).toBe('keychain');
    expect(storeForLogin(false, { CLINIC_CREDENTIAL_STORE: 'keychain' }, 'file')).toBe('keychain');
  });

  it("the profile's own choice (an earlier --insecure-storage) holds for the next login, under the flag and env", () => {
    expect(storeForLogin(false, {}, 'file')).toBe('file');
    expect(storeForLogin(false, {}, 'keychain')).toBe('keychain');
    expect(storeForLogin(true, {}, 'keychain')).toBe('file');
    expect(storeForLogin(false, { CLINIC_CREDENTIAL_STORE: 'file' }, 'keychain')).toBe('file');
    // Anything else in the file is no choice.
    expect(storeForLogin(false, {}, 'vault')).toBe('keychain');
    expect(storeForLogin(false, {}, undefined)).toBe('keychain');
  });

  it('--insecure-storage with CLINIC_CREDENTIAL_STORE=keychain is a contradiction', () => {
    expect(() => storeForLogin(true, { CLINIC_CREDENTIAL_STORE: 'keychain' })).toThrow(UsageError);
  });

  it('an unknown CLINIC_CREDENTIAL_STORE is a usage error', () => {
    expect(() => storeForLogin(false, { CLINIC_CREDENTIAL_STORE: 'vault' })).toThrow(/keychain or file/);
  });
});

describe('parseCredentials', () => {
  it('needs an access_token string', () => {
    expect(parseCredentials('{"kind":"pat","access_token":"x"}')).toEqual({ kind: 'pat', access_token: 'x' });
    expect(parseCredentials('{"kind":"pat"}')).toBeUndefined();
    expect(parseCredentials('not json')).toBeUndefined();
    expect(parseCredentials(null)).toBeUndefined();
  });
});

describe('FileStore under concurrent writers', () => {
  it('two profiles written at the same time never undo each other', async () => {
    const path = join(tmp.path, 'credentials.json');
    const profiles = Array.from({ length: 12 }, (_, i) => `profile-${i}`);
    await Promise.all(
      profiles.map((p) => new FileStore(path).set(p, { kind: 'pat', access_token: `${p}-token` })),
    );
    const store = new FileStore(path);
    for (const p of profiles) expect((await store.get(p))?.access_token).toBe(`${p}-token`);
  });

  it('refuses to overwrite a credentials file that is not JSON', async () => {
    const path = join(tmp.path, 'credentials.json');
    await writeFile(path, '{ not json', { mode: 0o600 });
    await expect(new FileStore(path).set('a', { kind: 'pat', access_token: 't' })).rejects.toThrow(
      /not a JSON object/,
    );
  });
});

describe('keychainMissingReason', () => {
  it("says what is missing instead of napi-rs's advice to delete package-lock.json", () => {
    const napi =
      'Cannot find native binding. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828). Please try `npm i` again after removing both package-lock.json and node_modules directory.\nmore';
    expect(keychainMissingReason(napi, 'linux-x64')).toBe(
      'the keychain library is not available on this machine: no prebuilt binary of @napi-rs/keyring for ' +
        'linux-x64 is installed (an install with --omit=optional leaves it out)',
    );
    expect(keychainMissingReason('libsecret went away\nstack', 'linux-x64')).toBe(
      'the keychain library is not available on this machine: libsecret went away',
    );
  });
});
