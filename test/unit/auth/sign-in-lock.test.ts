// A sign-in is read, changed and written back under one lock by a refresh, a login and a logout alike: a logout or a
// login while another command's refresh is under way waits for it, so the refreshed pair is never written back over
// the login, nor left behind (unrevoked) by the logout. A keychain entry (one per profile name) has one lock whatever
// the config folder. And a logout under a forced store that holds nothing still logs out of the one login used.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signInLock } from '../../../src/core/config/paths.js';
import { withLock } from '../../../src/core/lock.js';
import { runInProcess } from '../../helpers/in-process.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const dir = useTempDir('clinic-sign-in-lock-');
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

const pat = (token: string) => ({ kind: 'pat', access_token: token, token_type: 'bearer' });

/** A profile signed in with a personal token in the file store, at `baseUrl`. */
async function signedIn(name: string, baseUrl = 'http://127.0.0.1:9/api') {
  const configDir = join(dir.path, name);
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const profile = { base_url: baseUrl, auth_url: new URL(baseUrl).origin, credential_store: 'file' };
  await writeFile(join(configDir, 'config.json'), JSON.stringify({ profiles: { default: profile } }), {
    mode: 0o600,
  });
  await writeCredentials(configDir, pat('old-token'));
  return { CLINIC_CONFIG_DIR: configDir };
}

const writeCredentials = (configDir: string, entry: object) =>
  writeFile(join(configDir, 'credentials.json'), JSON.stringify({ default: entry }), { mode: 0o600 });

const credentials = async (configDir: string) =>
  JSON.parse(await readFile(join(configDir, 'credentials.json'), 'utf8')) as Record<
    string,
    { access_token: string }
  >;

/** Holds the sign-in's lock as a refresh does, writing `entry` (the refreshed pair) just before letting go. */
async function refreshUnderWay(
  env: { CLINIC_CONFIG_DIR: string },
  entry: object,
  during: () => Promise<unknown>,
) {
  let done: Promise<unknown> = Promise.resolve();
  await withLock(signInLock(env, 'file', 'default'), async () => {
    done = during();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await writeCredentials(env.CLINIC_CONFIG_DIR, entry);
  });
  return done;
}

describe('a login or a logout while a refresh is under way', () => {
  it('logout waits for it, and deletes the pair it wrote (nothing left behind)', async () => {
    const env = await signedIn('logout');
    const result = (await refreshUnderWay(env, pat('refreshed-token'), () =>
      runInProcess(['logout'], { env }),
    )) as Awaited<ReturnType<typeof runInProcess>>;
    expect(result.code, result.stderr).toBe(0);
    expect(await credentials(env.CLINIC_CONFIG_DIR)).toEqual({});
  });

  it('login --with-token waits for it, and its own token is the one kept', async () => {
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":{"id":7,"name":"Ada","email":"ada@example.com"}}');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const env = await signedIn('login', `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`);
    const result = (await refreshUnderWay(env, pat('refreshed-token'), () =>
      runInProcess(['login', '--with-token', '--insecure-storage'], { env, stdin: 'new-token\n' }),
    )) as Awaited<ReturnType<typeof runInProcess>>;
    expect(result.code, result.stderr).toBe(0);
    expect((await credentials(env.CLINIC_CONFIG_DIR)).default?.access_token).toBe('new-token');
  });
});

describe("the sign-in's lock", () => {
  it("a keychain entry's is one per profile name, whatever the config folder; a file store's is the folder's", () => {
    const one = { CLINIC_CONFIG_DIR: '/a', HOME: '/home/u' };
    const two = { CLINIC_CONFIG_DIR: '/b', HOME: '/home/u' };
    expect(signInLock(one, 'keychain', 'work')).toBe(signInLock(two, 'keychain', 'work'));
    expect(signInLock(one, 'keychain', 'work')).toBe('/home/u/.cache/clinic/locks/keychain-work.refresh');
    expect(signInLock({ ...one, XDG_RUNTIME_DIR: '/run/user/1000' }, 'keychain', 'work')).toBe(
      '/run/user/1000/clinic/keychain-work.refresh',
    );
    expect(signInLock(one, 'keychain', 'home')).not.toBe(signInLock(one, 'keychain', 'work'));
    expect(signInLock(one, 'file', 'work')).toBe('/a/locks/work.refresh');
    expect(signInLock(two, 'file', 'work')).not.toBe(signInLock(one, 'file', 'work'));
  });
});

describe('logout under CLINIC_CREDENTIAL_STORE', () => {
  function fakeKeytar(items: Map<string, string>) {
    return async () => ({
      getPassword: async (_service: string, account: string) => items.get(account) ?? null,
      setPassword: async (_service: string, account: string, password: string) =>
        void items.set(account, password),
      deletePassword: async (_service: string, account: string) => items.delete(account),
    });
  }

  it('forced to the file store, which holds nothing: the keychain login used is deleted too', async () => {
    const configDir = join(dir.path, 'forced');
    await mkdir(configDir, { recursive: true, mode: 0o700 });
    const profile = { base_url: 'http://127.0.0.1:9/api', credential_store: 'keychain' };
    await writeFile(join(configDir, 'config.json'), JSON.stringify({ profiles: { default: profile } }), {
      mode: 0o600,
    });
    const items = new Map([['default', JSON.stringify(pat('kept-token'))]]);
    const result = await runInProcess(['logout'], {
      env: { CLINIC_CONFIG_DIR: configDir, CLINIC_CREDENTIAL_STORE: 'file', HOME: dir.path },
      deps: { keytar: fakeKeytar(items) },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(items.size).toBe(0);
    expect(result.stderr).toMatch(/^logged out of profile default; deleted from .*keychain.*$/m);
  });

  it('a store that held nothing is not said to be deleted from', async () => {
    const configDir = join(dir.path, 'empty');
    await mkdir(configDir, { recursive: true, mode: 0o700 });
    const profile = { base_url: 'http://127.0.0.1:9/api', credential_store: 'keychain' };
    await writeFile(join(configDir, 'config.json'), JSON.stringify({ profiles: { default: profile } }), {
      mode: 0o600,
    });
    const result = await runInProcess(['logout'], {
      env: { CLINIC_CONFIG_DIR: configDir, HOME: dir.path },
      deps: { keytar: fakeKeytar(new Map()) },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^profile default was not logged in \(no sign-in in .*\)$/m);
    expect(result.stderr).not.toContain('logged out');
  });
});
