// The browser sign-in end to end against the sandbox's real OpenID provider: PKCE, state, refresh, revocation.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { baseEnv, BIN, CREATE_CUSTOMER, lines, shellStatus, type TestWorld } from '../../helpers/cli.js';
// @ts-expect-error a plain ES module shared with the BROWSER stand-in
import { signIn } from '../../helpers/fetch-browser.mjs';
import { aheadClock } from '../../helpers/sandbox-clock.js';
import { oauthWorld, useWorld } from '../../helpers/world.js';

const FETCH_BROWSER = `"${process.execPath}" "${fileURLToPath(new URL('../../helpers/fetch-browser.mjs', import.meta.url))}"`;

const credentialsOf = async (world: TestWorld) =>
  JSON.parse(await readFile(join(world.configDir, 'credentials.json'), 'utf8')).sandbox;

async function browserLogin(world: TestWorld, args: string[] = [], env: Record<string, string> = {}) {
  return world.clinic(['login', '--insecure-storage', ...args], { env: { BROWSER: FETCH_BROWSER, ...env } });
}

/** `clinic login --no-browser` running in the background, with the sign-in address it printed. */
async function loginWithoutBrowser(world: TestWorld) {
  const child = spawn(
    process.execPath,
    [BIN, '--profile', 'sandbox', 'login', '--insecure-storage', '--no-browser'],
    {
      env: baseEnv(world.configDir) as NodeJS.ProcessEnv,
    },
  );
  let stderr = '';
  const address = await new Promise<string>((resolve, reject) => {
    const reader = createInterface({ input: child.stderr });
    reader.on('line', (line) => {
      stderr += `${line}\n`;
      if (line.trim().startsWith('http')) resolve(line.trim());
    });
    child.once('close', () => reject(new Error(`login ended early: ${stderr}`)));
  });
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code: shellStatus(code, signal), stderr })),
  );
  return { child, address, done };
}

const world = useWorld(oauthWorld);

describe('clinic login (browser flow)', () => {
  it('signs in with PKCE and stores the access and refresh tokens with expiry and scopes', async () => {
    const { code, stdout, stderr } = await browserLogin(world);
    expect(stderr).toContain('logged in as Dana Admin');
    expect(code).toBe(0);
    expect(stdout).toBe('');
    const stored = await credentialsOf(world);
    expect(stored).toMatchObject({ kind: 'oauth', refresh_token: expect.any(String) });
    expect(stored.access_token.split('.')).toHaveLength(3); // a JWT
    const days = (Date.parse(stored.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(14.9);
    expect(stored.scopes).toContain('*');
    const status = JSON.parse((await world.clinic(['auth', 'status', '-o', 'json'])).stdout);
    expect(status).toMatchObject({ token_source: 'login', user: { name: 'Dana Admin' } });
    expect(status.scopes).toContain('*');
    const list = await world.clinic(['customers', 'list', '--limit', '2']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(2);
  });

  it('asks the authorization server for PKCE S256, a state and a nonce', async () => {
    const { child, address, done } = await loginWithoutBrowser(world);
    const url = new URL(address);
    child.kill('SIGINT');
    expect(url.pathname).toBe('/oauth/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect((await done).code).toBe(130);
  });

  it('a refusal at consent is one clear line and exit 3', async () => {
    const { code, stderr } = await browserLogin(world, [], { DRIVER_DECISION: 'deny' });
    expect(code).toBe(3);
    expect(lines(stderr).find((l) => l.startsWith('error:'))).toMatch(
      /^error: the sign-in server refused: access_denied/,
    );
  });

  it('--no-browser accepts the pasted redirect address', async () => {
    const { child, address, done } = await loginWithoutBrowser(world);
    const callback = await signIn(address, { user: '1' });
    child.stdin.end(`${callback}\n`);
    const { code, stderr } = await done;
    expect(stderr).toContain('logged in as Dana Admin');
    expect(code).toBe(0);
  });

  it('refuses a callback whose state does not match, and still takes the real one', async () => {
    const { child, address, done } = await loginWithoutBrowser(world);
    const redirect = new URL(address).searchParams.get('redirect_uri') as string;
    const forged = await fetch(`${redirect}?code=stolen&state=forged`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('state');
    const callback = await signIn(address, { user: '1' });
    expect(new URL(callback).searchParams.get('code')).not.toBe('stolen');
    await fetch(callback);
    child.stdin.end();
    const { code } = await done;
    expect(code).toBe(0);
  });

  it('refuses a pasted address whose state does not match', async () => {
    const { child, address, done } = await loginWithoutBrowser(world);
    const redirect = new URL(address).searchParams.get('redirect_uri') as string;
    child.stdin.end(`${redirect}?code=stolen&state=forged\n`);
    const { code, stderr } = await done;
    expect(code).toBe(3);
    expect(stderr).toMatch(/^error: .*state/m);
  });

  it('accepts exactly one callback: a second one finds the listener closed', async () => {
    const { child, address, done } = await loginWithoutBrowser(world);
    const callback = await signIn(address, { user: '1' });
    const first = await fetch(callback);
    expect(await first.text()).toContain('Signed in');
    await expect(fetch(callback)).rejects.toThrow();
    child.stdin.end();
    expect((await done).code).toBe(0);
  });

  it('--debug output and messages never show tokens or the authorization code', async () => {
    const report = join(world.configDir, 'driver-report.txt');
    const { code, stderr } = await browserLogin(world, ['--debug'], { DRIVER_REPORT: report });
    expect(code).toBe(0);
    expect(stderr).toContain('debug: > GET');
    const authCode = new URL((await readFile(report, 'utf8')).trim()).searchParams.get('code') as string;
    const stored = await credentialsOf(world);
    for (const secret of [authCode, stored.access_token, stored.refresh_token, stored.id_token]) {
      expect(secret.length).toBeGreaterThan(10);
      expect(stderr).not.toContain(secret);
    }
  });
});

describe('refresh', () => {
  it('a rejected access token is refreshed once and the request succeeds', async () => {
    await browserLogin(world);
    const before = world.sandbox.oauth.grants.refresh_token;
    const file = join(world.configDir, 'credentials.json');
    const all = JSON.parse(await readFile(file, 'utf8'));
    all.sandbox.access_token = 'not-a-valid-token';
    await writeFile(file, JSON.stringify(all));
    const { code } = await world.clinic(['customers', 'list', '--limit', '1']);
    expect(code).toBe(0);
    expect(world.sandbox.oauth.grants.refresh_token).toBe(before + 1);
    expect((await credentialsOf(world)).access_token).not.toBe('not-a-valid-token');
  });

  it('8 processes with an expired access token all succeed, and the server sees one refresh', async () => {
    await browserLogin(world);
    const file = join(world.configDir, 'credentials.json');
    const all = JSON.parse(await readFile(file, 'utf8'));
    all.sandbox.expires_at = new Date(Date.now() - 1000).toISOString();
    await writeFile(file, JSON.stringify(all));
    const before = world.sandbox.oauth.grants.refresh_token;
    const results = await Promise.all(
      Array.from({ length: 8 }, () => world.clinic(['customers', 'list', '--limit', '1'])),
    );
    expect(results.map((r) => r.code)).toEqual(Array(8).fill(0));
    expect(world.sandbox.oauth.grants.refresh_token).toBe(before + 1);
  });

  it('auth refresh rotates the pair, and says when the new token expires as people read a time', async () => {
    const before = await credentialsOf(world);
    const { code, stderr } = await world.clinic(['auth', 'refresh'], { env: { TZ: 'Asia/Kolkata' } });
    expect(code).toBe(0);
    // Not an ISO instant, but in how long, at a local time, in which zone.
    expect(stderr).toMatch(
      /^refreshed profile sandbox; the access token expires in \d+ (min|h|days) \(\d{4}-\d\d-\d\d \d\d:\d\d, times in Asia\/(Kolkata|Calcutta) \(UTC\+05:30\)\)\n$/,
    );
    const after = await credentialsOf(world);
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
  });

  it('CLINIC_TOKEN is never refreshed', async () => {
    const before = world.sandbox.oauth.grants.refresh_token;
    const { code } = await world.clinic(['customers', 'list'], { env: { CLINIC_TOKEN: 'bogus' } });
    expect(code).toBe(3);
    expect(world.sandbox.oauth.grants.refresh_token).toBe(before);
  });
});

describe('scopes and logout', () => {
  it('a missing scope gives exit 4 and says how to sign in with it', async () => {
    await browserLogin(world, ['--scopes', 'openid customers:read']);
    const { code, stderr } = await world.clinic(CREATE_CUSTOMER);
    expect(code).toBe(4);
    expect(stderr).toContain('the token lacks the scope customers:write');
    expect(stderr).toMatch(
      /sign in again keeping the scopes it has: clinic --profile sandbox login --scopes "openid customers:read customers:write"/,
    );
  });

  it('a missing role gives exit 4 and says to ask a clinic admin, never to change scopes', async () => {
    await browserLogin(world, [], { DRIVER_USER: '3' }); // Vera Viewer, scope *
    const { code, stderr } = await world.clinic(CREATE_CUSTOMER);
    expect(code).toBe(4);
    expect(stderr).toContain("hint: your user's role in this clinic does not allow this: ask a clinic admin");
    expect(stderr).not.toContain('--scopes');
  });

  it('logout revokes at the server, prints the end-session address, and deletes locally', async () => {
    await browserLogin(world);
    const before = world.sandbox.oauth.revocations;
    const { code, stdout } = await world.clinic(['logout', '--end-session']);
    expect(code).toBe(0);
    expect(world.sandbox.oauth.revocations).toBeGreaterThan(before);
    const endSession = new URL(stdout.trim());
    expect(endSession.pathname).toBe('/oauth/logout');
    expect(endSession.searchParams.get('id_token_hint')).toBeTruthy();
    expect((await world.clinic(['auth', 'status'])).code).toBe(3);
  });
});

describe('an expired refresh token', () => {
  it('ends in exit 3 and run: clinic login', async () => {
    const clock = aheadClock();
    const short = await oauthWorld({ accessTokenTtl: 3, refreshTokenTtl: 4, clock });
    try {
      expect((await browserLogin(short)).code).toBe(0);
      clock.advance(5000);
      const { code, stderr } = await short.clinic(['customers', 'list']);
      expect(code).toBe(3);
      expect(lines(stderr)).toContain('run: clinic --profile sandbox login');
    } finally {
      await short.close();
    }
  });
});

describe('login edges', () => {
  it('gives up after --timeout with exit 3', async () => {
    const started = Date.now();
    const { code, stderr } = await world.clinic([
      'login',
      '--insecure-storage',
      '--no-browser',
      '--timeout',
      '1',
    ]);
    expect(code).toBe(3);
    expect(stderr).toMatch(/^error: no sign-in within 1s/m);
    // The profile was chosen with --profile: the way to try again names it.
    expect(stderr).toContain("run 'clinic --profile sandbox login' again");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('listens on the fixed --port when asked', async () => {
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const report = join(world.configDir, `port-report-${port}.txt`);
    const { code } = await browserLogin(world, ['--port', String(port)], { DRIVER_REPORT: report });
    expect(code).toBe(0);
    expect((await readFile(report, 'utf8')).trim()).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${port}/callback\\?`),
    );
  });

  it('without a usable keychain it stops before opening the browser and says how to go on', async () => {
    const report = join(world.configDir, 'never-opened.txt');
    // A profile that has chosen no store yet (one that chose the file keeps to it: below).
    const fresh = ['--profile', 'no-choice-yet'];
    await world.clinic([...fresh, 'config', 'set', 'base_url', world.sandbox.info.base_url]);
    const { code, stderr } = await world.clinic([...fresh, 'login'], {
      env: {
        BROWSER: FETCH_BROWSER,
        DRIVER_REPORT: report,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
      },
    });
    expect(code).toBe(3);
    expect(stderr).toContain('--insecure-storage');
    expect(stderr).toContain('CLINIC_TOKEN');
    await expect(readFile(report, 'utf8')).rejects.toThrow();
  });

  it('where nothing can show a browser (no DISPLAY, WAYLAND_DISPLAY or BROWSER) it says so and asks for the address', async () => {
    const { code, stderr } = await world.clinic(['login', '--insecure-storage', '--timeout', '20'], {
      env: { BROWSER: undefined, DISPLAY: undefined, WAYLAND_DISPLAY: undefined, WSL_DISTRO_NAME: undefined },
      // What the browser ended on, pasted: here one this login did not start, judged and refused.
      input: 'http://127.0.0.1:9/callback?code=x&state=another\n',
    });
    expect(stderr).toContain('No browser can be opened here (no DISPLAY, WAYLAND_DISPLAY or BROWSER)');
    expect(stderr).not.toContain('Opened the sign-in page');
    expect(stderr).toContain('Open this address in a browser to sign in:');
    expect(code, stderr).toBe(3);
    expect(stderr).toContain('does not carry the state this login sent');
  });

  it('a profile that chose the file keeps to it when it signs in again, keychain or not', async () => {
    const chose = ['--profile', 'chose-file'];
    await world.clinic([...chose, 'config', 'set', 'base_url', world.sandbox.info.base_url]);
    const first = await world.clinic([...chose, 'login', '--with-token', '--insecure-storage'], {
      input: world.sandbox.info.token,
    });
    expect(first.code).toBe(0);
    const again = await world.clinic([...chose, 'login', '--with-token'], {
      input: world.sandbox.info.token,
      env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' },
    });
    expect(again).toMatchObject({ code: 0, stdout: '' });
    expect(again.stderr).toContain('credentials.json (plain text, mode 0600)');
    const stored = JSON.parse(await readFile(join(world.configDir, 'credentials.json'), 'utf8'));
    expect(stored['chose-file'].access_token).toBe(world.sandbox.info.token);
  });

  it('logout --all-profiles signs every profile out', async () => {
    await browserLogin(world);
    const other = ['--profile', 'other'];
    await world.clinic([...other, 'config', 'set', 'base_url', world.sandbox.info.base_url]);
    const pat = await world.clinic([...other, 'login', '--with-token', '--insecure-storage'], {
      input: world.sandbox.info.token,
    });
    expect(pat.code).toBe(0);
    const { code, stderr } = await world.clinic(['logout', '--all-profiles']);
    expect(code).toBe(0);
    expect(stderr).toContain('logged out of profile sandbox');
    expect(stderr).toContain('logged out of profile other');
    expect(JSON.parse(await readFile(join(world.configDir, 'credentials.json'), 'utf8'))).toEqual({});
  });
});

describe('after logout', () => {
  it('the access token it held is refused by the API', async () => {
    await browserLogin(world);
    const { access_token: token } = await credentialsOf(world);
    expect((await world.clinic(['account'], { env: { CLINIC_TOKEN: token } })).code).toBe(0);
    expect((await world.clinic(['logout'])).code).toBe(0);
    expect((await world.clinic(['account'], { env: { CLINIC_TOKEN: token } })).code).toBe(3);
  });

  it('the profile keeps its choice of where sign-ins go: the next login goes there too (was: dropped)', async () => {
    await world.clinic(['config', 'set', 'credential_store', 'file']);
    await browserLogin(world);
    expect((await world.clinic(['logout'])).code).toBe(0);
    const kept = await world.clinic(['config', 'get', 'credential_store']);
    expect(kept.stdout).toBe('file\n');
    // Signing in again without --insecure-storage, where no keychain answers: the file, as the profile says.
    const noBus = { BROWSER: FETCH_BROWSER, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', DISPLAY: '' };
    const again = await world.clinic(['login'], { env: noBus });
    expect(again.code, again.stderr).toBe(0);
    expect((await credentialsOf(world)).access_token).toEqual(expect.any(String));
  });
});

describe('a keychain profile with no Secret Service to reach', () => {
  // The keyring's own fallback, the kernel's keyring, is never used: it keeps nothing past a reboot, and whether a
  // call reaches it depends on the thread (a "not logged in" there hid a sign-in kept in the Secret Service).
  it('says the keychain cannot be reached, not that nobody is logged in: exit 3', async () => {
    const noBus = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', DISPLAY: '' };
    await world.clinic(['--profile', 'kr', 'config', 'set', 'credential_store', 'keychain']);
    await world.clinic(['--profile', 'kr', 'config', 'set', 'base_url', world.sandbox.info.base_url]);
    world.newRequests();
    const { code, stderr } = await world.clinic(['--profile', 'kr', 'account'], { env: noBus });
    expect(code).toBe(3);
    // Where the keyring's binary is not installed (--omit=optional), that is what it says instead.
    expect(stderr).toMatch(/^error: (cannot read the keychain: |the keychain library is not available)/);
    expect(stderr).not.toContain('not logged in');
    expect(world.newRequests()).toEqual([]);
    expect((await world.clinic(['--profile', 'kr', 'config', 'unset', 'credential_store'])).code).toBe(0);
  });
});

describe('logout with an unreachable keychain', () => {
  it('still logs the other profiles out, then exits 3 naming the one it could not', async () => {
    const noBus = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', DISPLAY: '' };
    await world.clinic(['--profile', 'kc', 'config', 'set', 'credential_store', 'keychain']);
    await world.clinic(['--profile', 'zz', 'config', 'set', 'base_url', world.sandbox.info.base_url]);
    const login = await world.clinic(['--profile', 'zz', 'login', '--with-token', '--insecure-storage'], {
      input: world.sandbox.info.token,
    });
    expect(login.code).toBe(0);
    const { code, stderr } = await world.clinic(['logout', '--all-profiles'], { env: noBus });
    expect(code).toBe(3);
    expect(stderr).toMatch(/^warning: profile kc is still signed in: /m);
    expect(stderr).toContain('logged out of profile zz');
    expect(stderr).toMatch(/^error: could not delete the sign-in of kc$/m);
    const stored = JSON.parse(await readFile(join(world.configDir, 'credentials.json'), 'utf8'));
    expect(stored.zz).toBeUndefined();
  });
});
