// The single executable is the whole CLI where there is no Node (test/release/release.ts hides it): it starts the
// sandbox (REST, the OpenID provider, realtime), runs commands against it, signs in through OpenID, tails chat,
// and keeps a token in a real gnome-keyring through the keyring binary it carries, loaded from a checked private copy.
import { type ChildProcess, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, collectOutput, lines, requirePart, tempConfigDir, tempDir } from '../helpers/cli.js';
// @ts-expect-error a plain ES module shared with the BROWSER stand-in
import { signIn } from '../helpers/fetch-browser.mjs';
import { EXECUTABLE, NODE_HIDDEN, runExecutable, spawnWithoutNode } from './release.js';

interface Ready {
  base_url: string;
  auth_url: string;
  token: string;
}

let configDir: string;
let env: Record<string, string | undefined>;
let sandbox: ChildProcess;
let ready: Ready;

beforeAll(async () => {
  configDir = await tempConfigDir();
  env = baseEnv(configDir);
  // Two patient messages a second, for chat tail to show.
  sandbox = await spawnWithoutNode(
    EXECUTABLE,
    ['sandbox', 'start', '--port', '0', '--rate-limit', '0', '--chatter', '2'],
    env,
  );
  const line = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    sandbox.stderr?.on('data', (chunk) => (stderr += chunk));
    sandbox.once('exit', (code) => reject(new Error(`the sandbox ended (${code}): ${stderr}`)));
    createInterface({ input: sandbox.stdout! }).once('line', resolve);
  });
  ready = JSON.parse(line) as Ready;
});
afterAll(async () => {
  const ended = new Promise((resolve) => sandbox.once('exit', resolve));
  sandbox.kill('SIGTERM');
  await ended;
});

const clinic = (args: string[], extra: Record<string, string | undefined> = {}, input = '') =>
  runExecutable(['--profile', 'sandbox', ...args], { ...env, ...extra }, input);

describe('the executable with Node out of reach', () => {
  it.skipIf(!NODE_HIDDEN)('has no node to run, nor node_modules to load from', async () => {
    const child = await spawnWithoutNode(
      'sh',
      ['-c', 'node -e 0; ls "$0" | wc -l', join(EXECUTABLE, '../../node_modules')],
      env,
    );
    const { code, stdout, stderr } = await collectOutput(child);
    expect(stderr).toMatch(/node: Permission denied/);
    expect(stdout.trim()).toBe('0');
    expect(code).toBe(0);
  });

  it('serves the sandbox: REST with a command from the executable, and the OpenID provider', async () => {
    const list = await clinic(['customers', 'list', '--per-page', '2', '-o', 'json'], {
      CLINIC_TOKEN: ready.token,
    });
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(2);
    const discovery = (await (await fetch(`${ready.auth_url}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
    };
    expect(discovery.issuer).toBe(ready.auth_url);
  });

  it('signs in through OpenID (PKCE, the pasted address) against its own sandbox', async () => {
    const child = await spawnWithoutNode(
      EXECUTABLE,
      ['--profile', 'sandbox', 'login', '--insecure-storage', '--no-browser'],
      env,
    );
    const result = collectOutput(child);
    const address = await new Promise<string>((resolve) =>
      createInterface({ input: child.stderr! }).on('line', (line) => {
        if (line.trim().startsWith('http')) resolve(line.trim());
      }),
    );
    child.stdin?.end(`${await signIn(address, { user: '1' })}\n`);
    const { code, stderr } = await result;
    expect(stderr).toContain('logged in as Dana Admin');
    expect(code).toBe(0);
    const account = await clinic(['account', '-o', 'json']);
    expect(JSON.parse(account.stdout)).toMatchObject({ name: 'Dana Admin' });
    expect((await clinic(['logout'])).code).toBe(0);
  });

  it('tails chat over realtime (pusher-js against its own Pusher-protocol server)', async () => {
    const tail = await clinic(['chat', 'tail', '-o', 'ndjson', '--timeout', '4'], {
      CLINIC_TOKEN: ready.token,
    });
    expect(tail.stderr).not.toMatch(/^error:/m);
    expect(tail.code).toBe(0);
    const events = lines(tail.stdout).map((line) => JSON.parse(line) as { event: string; source: string });
    expect(events.length).toBeGreaterThan(0);
    expect(events[0]).toMatchObject({ event: 'ChatLogCreated', source: 'realtime' });
  });
});

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const keyring = requirePart(
  has('dbus-run-session') && has('gnome-keyring-daemon'),
  'the executable and a real keychain: needs dbus-run-session and gnome-keyring-daemon (apt-get install dbus gnome-keyring)',
);

describe.skipIf(!keyring)('the executable and a real gnome-keyring', () => {
  it('keeps a token there through the keyring binary it carries, loaded from a checked private copy', async () => {
    const home = await tempDir('clinic-keyring-home-');
    const cache = join(home, '.cache');
    const session = (script: string) =>
      spawnWithoutNode(
        'dbus-run-session',
        [
          '--',
          'sh',
          '-c',
          `printf %s ci-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; ${script}`,
        ],
        {
          ...env,
          HOME: home,
          XDG_DATA_HOME: join(home, '.local/share'),
          XDG_CACHE_HOME: cache,
          DISPLAY: '',
          CLINIC_EXECUTABLE: EXECUTABLE,
          TEST_TOKEN: ready.token,
        },
      ).then(collectOutput);
    const run = (args: string) => `"$CLINIC_EXECUTABLE" --profile sandbox ${args}`;

    // The default store: an earlier sign-in's choice of the file (which logout keeps) is undone first.
    const login = await session(
      `${run('config unset credential_store')} >/dev/null 2>&1; printf %s "$TEST_TOKEN" | ${run('login --with-token')} && ${run('auth status -o json')} && ${run('account -o json')}`,
    );
    expect(login.stderr).toContain('token in OS keychain');
    expect(login.code).toBe(0);
    const [status, account] = login.stdout.split(/(?<=\n\})\n/);
    expect(JSON.parse(status as string)).toMatchObject({ storage: 'OS keychain (service clinic-cli)' });
    expect(JSON.parse(account as string)).toMatchObject({ name: 'Dana Admin' });
    // Not in the file store (where the OpenID sign-in above kept its tokens until its logout).
    if (readdirSync(configDir).includes('credentials.json'))
      expect(readFileSync(join(configDir, 'credentials.json'), 'utf8')).not.toContain(ready.token);

    // The copy: a 0700 folder of the cache, a 0500 file, the very binary npm installs for this platform.
    const folder = join(cache, 'clinic', 'native');
    const [copy] = readdirSync(folder);
    const file = join(folder, copy as string);
    const installed = createRequire(import.meta.url).resolve(
      '@napi-rs/keyring-linux-x64-gnu/keyring.linux-x64-gnu.node',
    );
    const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o500);
    expect(sha256(file)).toBe(sha256(installed));

    // A copy that was tampered with is never loaded: it is rewritten before the next load, and the keychain works.
    chmodSync(file, 0o700);
    writeFileSync(file, 'not the keyring');
    const after = await session(`${run('auth token')} && ${run('logout')}`);
    expect(after.stdout.trim()).toBe(ready.token);
    expect(after.code).toBe(0);
    expect(sha256(file)).toBe(sha256(installed));
  });
});
