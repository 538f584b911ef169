// `clinic doctor` end to end: the built CLI against the sandbox, healthy and broken in the ways users break it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, type CliResult, lines, runCli, shellStatus, tempDir } from '../../helpers/cli.js';
import {
  FAKE_ACCOUNT,
  type FakeApi,
  type FakeApiOptions,
  type FakeRequest,
  startFakeApi,
} from '../../helpers/fake-api.js';
import { oauthWorld, realtimeWorld, useWorld } from '../../helpers/world.js';

const ORDER = [
  'config-file',
  'profile',
  'base-url',
  'clock-skew',
  'keychain',
  'token',
  'account',
  'tenant-setup',
  'rate-limit',
  'realtime',
];

const FETCH_BROWSER = `"${process.execPath}" "${fileURLToPath(new URL('../../helpers/fetch-browser.mjs', import.meta.url))}"`;

interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail' | 'skip';
  detail: string;
  fix?: string;
  [fact: string]: unknown;
}
interface Report {
  ok: boolean;
  checks: Check[];
}

const report = (stdout: string) => JSON.parse(stdout) as Report;
const check = (r: Report, name: string) => {
  const found = r.checks.find((c) => c.name === name);
  if (!found) throw new Error(`no check ${name} in ${JSON.stringify(r)}`);
  return found;
};
const failed = (r: Report) => r.checks.filter((c) => c.status === 'fail').map((c) => c.name);
const warned = (r: Report) => r.checks.filter((c) => c.status === 'warn').map((c) => c.name);

/** A port nothing listens on: opened, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const world = useWorld(() => realtimeWorld({ rateLimit: 60 }));

describe('clinic doctor on a healthy sandbox profile', () => {
  it('lists every check in order as JSON (the default off a terminal) and exits 0', async () => {
    const { code, stdout, stderr } = await world.clinic(['doctor']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const r = report(stdout);
    expect(r.ok).toBe(true);
    expect(r.checks.map((c) => c.name)).toEqual(ORDER);
    for (const c of r.checks) {
      expect(c).toMatchObject({ name: expect.any(String), detail: expect.any(String) });
      // The keychain depends on the machine; this profile keeps its tokens in the file, so it can only warn.
      expect(c.status, `${c.name}: ${c.detail}`).toBe(c.name === 'keychain' ? c.status : 'ok');
    }
    expect(['ok', 'warn']).toContain(check(r, 'keychain').status);
    expect(check(r, 'profile')).toMatchObject({ profile: 'sandbox', selected_by: '--profile' });
    expect(check(r, 'profile').settings).toContainEqual({
      key: 'base_url',
      value: world.sandbox.info.base_url,
      source: 'profile',
    });
    expect(check(r, 'base-url')).toMatchObject({ http_status: 401, url: world.sandbox.info.base_url });
    expect(check(r, 'clock-skew').skew_ms).toEqual(expect.any(Number));
    expect(check(r, 'token')).toMatchObject({ source: 'personal access token', store: 'file' });
    expect(check(r, 'account').detail).toContain('Dana Admin');
    expect(check(r, 'tenant-setup').detail).toContain('tenant 1 (Northside Clinic): setup complete');
    expect(check(r, 'rate-limit')).toMatchObject({ limit: 60, remaining: expect.any(Number) });
    expect(check(r, 'realtime')).toMatchObject({ channel: 'private-chat-log.1' });
    expect(check(r, 'realtime').detail).toMatch(/authorized and subscribed to private-chat-log\.1/);
  });

  it('really subscribes through the sandbox: the channel authorization reaches the auth endpoint', async () => {
    world.newRequests();
    expect((await world.clinic(['doctor'])).code).toBe(0);
    const seen = world.newRequests().map((r) => `${r.method} ${r.path}`);
    expect(seen).toContain('POST /api/broadcasting/auth');
    expect(seen).toContain('GET /api/v1/account');
    expect(seen).toContain('GET /api/v1/account-transaction-types');
  });

  it('prints one human line per check with -o table, in order, and never the token', async () => {
    const { code, stdout, stderr } = await world.clinic(['doctor', '-o', 'table']);
    expect(code).toBe(0);
    const printed = lines(stdout);
    expect(printed).toHaveLength(ORDER.length);
    printed.forEach((line, i) => expect(line).toMatch(new RegExp(`^(ok|warn) +${ORDER[i]} +\\S`)));
    expect(stdout).not.toContain(world.sandbox.info.token);
    expect(stdout).not.toContain('\u001b['); // NO_COLOR, and not a terminal
    expect(stderr).toMatch(/^no check failed/);
  });

  it('warns about a config file others can read, with the chmod that fixes it', async () => {
    const file = join(world.configDir, 'config.json');
    await chmod(file, 0o644);
    const { code, stdout } = await world.clinic(['doctor']);
    expect(code).toBe(0); // a warning is not a failure
    const c = check(report(stdout), 'config-file');
    expect(c).toMatchObject({ status: 'warn', mode: '0644' });
    expect(c.detail).toContain('readable by others');
    expect(c.fix).toContain(`chmod 600 ${file}`);
    expect((await stat(file)).mode & 0o777).toBe(0o600); // and clinic tightened it when it read it
  });
});

describe('clinic doctor on broken profiles', () => {
  it('an unreachable base_url fails with the fix, and the checks that need the API are skipped', async () => {
    const port = await closedPort();
    // The realtime authorization follows base_url (one on another origin would fail the realtime check).
    const env = { CLINIC_REALTIME_AUTH_ENDPOINT: `http://127.0.0.1:${port}/api/broadcasting/auth` };
    const { code, stdout, stderr } = await world.clinic(
      ['--base-url', `http://127.0.0.1:${port}/api`, 'doctor', '-o', 'json'],
      { env },
    );
    expect(code).toBe(1);
    const r = report(stdout);
    expect(r.ok).toBe(false);
    expect(r.checks.map((c) => c.name)).toEqual(ORDER);
    expect(check(r, 'base-url')).toMatchObject({ status: 'fail', stage: 'connect' });
    expect(check(r, 'base-url').detail).toContain('connection refused');
    expect(check(r, 'base-url').fix).toMatch(/nothing listens at 127\.0\.0\.1:\d+/);
    for (const name of ['clock-skew', 'account', 'tenant-setup', 'rate-limit', 'realtime'])
      expect(check(r, name).status, name).toBe('skip');
    expect(check(r, 'account').detail).toMatch(/^skipped: 127\.0\.0\.1:\d+ cannot be reached/);
    expect(failed(r)).toEqual(['base-url']);
    // Only the machine's keychain may warn (an install without a usable OS keychain), and the summary counts it.
    expect(warned(r).filter((name) => name !== 'keychain')).toEqual([]);
    const warnings = warned(r).length === 1 ? ' (1 warning)' : '';
    expect(lines(stderr)[0]).toBe(`error: 1 of 10 checks failed: base-url${warnings}`);
  });

  it('a config file that is not JSON fails the first check, and every other check says why it skipped', async () => {
    const dir = join(world.configDir, '..', 'broken-config');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(join(dir, 'config.json'), '{"profiles": ', { mode: 0o600 });
    const { code, stdout } = await runCli(dir, ['doctor', '-o', 'json']);
    expect(code).toBe(1);
    const r = report(stdout);
    expect(r.checks.map((c) => c.name)).toEqual(ORDER);
    expect(check(r, 'config-file').status).toBe('fail');
    expect(check(r, 'config-file').detail).toContain('is not valid JSON');
    expect(check(r, 'config-file').fix).toContain('move it away');
    for (const c of r.checks.slice(1))
      expect(c.detail, c.name).toBe('skipped: the config file cannot be read');
  });

  it('an unknown profile fails at the profile check and says how to create it', async () => {
    const { code, stdout } = await runCli(world.configDir, ['--profile', 'nope', 'doctor', '-o', 'table']);
    expect(code).toBe(1);
    const profileLine = lines(stdout).find((l) => /^fail +profile /.test(l));
    expect(profileLine).toContain("there is no profile 'nope'");
    expect(profileLine).toContain('→ clinic config profiles lists the profiles');
    expect(profileLine).toContain('clinic --profile nope config set base_url URL');
    expect(lines(stdout).filter((l) => l.startsWith('fail'))).toHaveLength(1);
    expect(lines(stdout).find((l) => / token /.test(l))).toMatch(/^skip +token +skipped: profile 'nope'/);
  });

  it('a setup-required tenant fails with the next step from the 428', async () => {
    const { code, stdout } = await world.clinic(['--tenant', '3', 'doctor', '-o', 'json']);
    expect(code).toBe(1);
    const c = check(report(stdout), 'tenant-setup');
    expect(c).toMatchObject({
      status: 'fail',
      tenant: '3',
      next_step: 'Add a billing address in Settings > Billing',
    });
    expect(c.detail).toContain('tenant 3 (Lakeview Physio): setup incomplete (HTTP 428 SETUP_REQUIRED)');
    expect(c.fix).toContain('Add a billing address in Settings > Billing');
  });

  it('a tenant the user is not in fails and points at tenants use', async () => {
    const { code, stdout } = await world.clinic(['--tenant', '99', 'doctor', '-o', 'json']);
    expect(code).toBe(1);
    const c = check(report(stdout), 'tenant-setup');
    expect(c.status).toBe('fail');
    expect(c.detail).toContain('tenant 99 is not one of your tenants (1, 2, 3)');
    expect(c.fix).toContain('clinic --profile sandbox tenants use');
  });

  it('an expired personal access token: the token check says so, and the API checks are skipped', async () => {
    const file = join(world.configDir, 'credentials.json');
    const original = await readFile(file, 'utf8');
    const all = JSON.parse(original);
    const expired = world.sandbox.issueToken({ userId: 1, expiresInSeconds: 1 });
    all.sandbox = {
      kind: 'pat',
      access_token: expired,
      expires_at: new Date(Date.now() - 3 * 3600_000).toISOString(),
      scopes: ['*'],
    };
    await writeFile(file, JSON.stringify(all), { mode: 0o600 });
    try {
      const { code, stdout } = await world.clinic(['doctor', '-o', 'table']);
      expect(code).toBe(1);
      const tokenLine = lines(stdout).find((l) => / token /.test(l));
      expect(tokenLine).toMatch(
        /^fail +token +personal access token in .* expired 3 h ago and cannot be refreshed/,
      );
      expect(tokenLine).toContain('→ run: clinic --profile sandbox login');
      expect(stdout).not.toContain(expired);
      expect(lines(stdout).find((l) => / account /.test(l))).toMatch(
        /^skip +account +skipped: no usable token/,
      );
    } finally {
      await writeFile(file, original, { mode: 0o600 });
    }
  });

  it('a stored token whose recorded expiry is no readable time: a warning saying so', async () => {
    const file = join(world.configDir, 'credentials.json');
    const original = await readFile(file, 'utf8');
    const all = JSON.parse(original);
    all.sandbox = { ...all.sandbox, expires_at: 'next tuesday' };
    await writeFile(file, JSON.stringify(all), { mode: 0o600 });
    try {
      const { code, stdout } = await world.clinic(['doctor', '-o', 'json']);
      expect(code).toBe(0);
      const c = check(report(stdout), 'token');
      expect(c).toMatchObject({ status: 'warn', expires_at: null });
      expect(c.detail).toContain('its recorded expiry (next tuesday) is no readable time');
      expect(c.fix).toBe('run: clinic --profile sandbox login again to record a fresh sign-in');
    } finally {
      await writeFile(file, original, { mode: 0o600 });
    }
  });

  it('a rejected CLINIC_TOKEN fails the account check saying to replace CLINIC_TOKEN, not to log in', async () => {
    const { code, stdout } = await world.clinic(['doctor', '-o', 'json'], {
      env: { CLINIC_TOKEN: 'clinic_pat_not-a-real-token' },
    });
    expect(code).toBe(1);
    const r = report(stdout);
    expect(check(r, 'token')).toMatchObject({ status: 'ok', source: 'CLINIC_TOKEN', store: null });
    expect(check(r, 'account').status).toBe('fail');
    expect(check(r, 'account').detail).toContain('the token was rejected (HTTP 401');
    expect(check(r, 'account').fix).toBe(
      'the token in CLINIC_TOKEN was rejected: set CLINIC_TOKEN to a valid token (it is used as is, never refreshed)',
    );
    expect(check(r, 'account').fix).not.toContain('login');
    expect(stdout).not.toContain('clinic_pat_not-a-real-token');
  });

  it('a wrong realtime key: the realtime check fails with what the server said', async () => {
    const { code, stdout } = await world.clinic(['doctor', '-o', 'json'], {
      env: { CLINIC_REALTIME_KEY: 'wrong-key' },
    });
    expect(code).toBe(1);
    const r = report(stdout);
    expect(failed(r)).toEqual(['realtime']);
    expect(check(r, 'realtime').detail).toMatch(/refused the connection \(40\d\d/);
    expect(check(r, 'realtime').fix).toContain('realtime.key');
  });

  it('a profile without realtime settings skips that check with the reason; CLINIC_TOKEN is reported', async () => {
    const bare = (args: string[]) =>
      runCli(world.configDir, ['--profile', 'bare', ...args], {
        env: { CLINIC_TOKEN: world.sandbox.info.token },
      });
    expect((await bare(['config', 'set', 'base_url', world.sandbox.info.base_url])).code).toBe(0);
    expect((await bare(['config', 'set', 'tenant', '2'])).code).toBe(0);
    const { code, stdout } = await bare(['doctor', '-o', 'json']);
    expect(code).toBe(0);
    const r = report(stdout);
    expect(check(r, 'realtime')).toMatchObject({ status: 'skip' });
    expect(check(r, 'realtime').detail).toMatch(/^skipped: no realtime settings in profile bare/);
    expect(check(r, 'token').detail).toMatch(/^CLINIC_TOKEN from the environment \(never refreshed/);
    expect(check(r, 'tenant-setup').detail).toContain('tenant 2 (Harbor Dental)');
  });

  it('a clock far from the server fails the clock-skew check', async () => {
    // A server whose Date says ten minutes ago: as if this machine's clock ran ten minutes fast.
    const server: Server = createServer((_req, res) => {
      res.sendDate = false;
      res.writeHead(401, {
        date: new Date(Date.now() - 10 * 60_000).toUTCString(),
        'content-type': 'application/json',
      });
      res.end('{"message":"Unauthenticated."}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const { code, stdout } = await world.clinic(
        ['--base-url', `http://127.0.0.1:${port}/api`, 'doctor', '-o', 'json'],
        { env: { CLINIC_TOKEN: 'x' } },
      );
      expect(code).toBe(1);
      const c = check(report(stdout), 'clock-skew');
      expect(c.status).toBe('fail');
      expect(c.detail).toMatch(/^local clock 10 min ahead of the server/);
      expect(c.fix).toContain('sync the system clock');
      expect(Math.abs((c.skew_ms as number) - 600_000)).toBeLessThan(3000);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('clinic doctor with a browser sign-in whose access token expired', () => {
  const oauth = useWorld(() => oauthWorld({ accessTokenTtl: 2 }));
  beforeAll(async () => {
    const login = await oauth.clinic(['login', '--insecure-storage'], { env: { BROWSER: FETCH_BROWSER } });
    expect(login.code, login.stderr).toBe(0);
  });

  const credentials = () => join(oauth.configDir, 'credentials.json');

  /**
   * Waits out the sandbox's 2 s lifetime, and records an expiry that has passed: the CLI records none for a lifetime
   * under a minute (it uses such a token until it is refused), so this stands for a sign-in an hour old.
   */
  async function expire(change: (signIn: Record<string, unknown>) => void = () => undefined) {
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const all = JSON.parse(await readFile(credentials(), 'utf8'));
    all.sandbox.obtained_at = new Date(Date.now() - 3_605_000).toISOString();
    all.sandbox.expires_at = new Date(Date.now() - 5000).toISOString();
    change(all.sandbox);
    await writeFile(credentials(), JSON.stringify(all), { mode: 0o600 });
  }

  it('refreshes it, says so as a warning, and the account check passes', async () => {
    await expire();
    const before = JSON.parse(await readFile(credentials(), 'utf8')).sandbox;
    expect(Date.parse(before.expires_at)).toBeLessThan(Date.now());
    const { code, stdout } = await oauth.clinic(['doctor', '-o', 'json']);
    expect(code).toBe(0);
    const r = report(stdout);
    expect(check(r, 'token')).toMatchObject({
      status: 'warn',
      source: 'login',
      refreshed: true,
      refreshable: true,
    });
    expect(check(r, 'token').detail).toMatch(/had expired \d+ s ago; refreshed now with the refresh token/);
    expect(check(r, 'token').scopes).toContain('*');
    expect(check(r, 'account').status).toBe('ok');
    const after = JSON.parse(await readFile(credentials(), 'utf8')).sandbox;
    expect(after.access_token).not.toBe(before.access_token);
    expect(stdout).not.toContain(after.access_token);
    expect(stdout).not.toContain(after.refresh_token);
  });

  it('when the refresh fails, the token check fails with the login fix', async () => {
    await expire((signIn) => (signIn.refresh_token = 'revoked-refresh-token'));
    const { code, stdout } = await oauth.clinic(['doctor', '-o', 'json']);
    expect(code).toBe(1);
    const c = check(report(stdout), 'token');
    expect(c.status).toBe('fail');
    expect(c.detail).toMatch(/expired \d+ s ago, and the refresh failed/);
    expect(c.fix).toContain('clinic --profile sandbox login');
    expect(check(report(stdout), 'account').status).toBe('skip');
  });
});

describe('clinic doctor output formats', () => {
  it('-o csv has the columns name,status,detail,fix, a row per check', async () => {
    const { code, stdout } = await world.clinic(['doctor', '-o', 'csv']);
    expect(code).toBe(0);
    const rows = parse(stdout, { columns: true }) as Record<string, string>[];
    expect(stdout.split('\r\n')[0]).toBe('name,status,detail,fix');
    expect(rows.map((row) => row.name)).toEqual(ORDER);
    expect(rows.find((row) => row.name === 'account')!.detail).toContain('Dana Admin');
  });

  it('-o csv keeps the fix of a warning, whichever check comes first', async () => {
    await chmod(join(world.configDir, 'config.json'), 0o644);
    const { stdout } = await world.clinic(['doctor', '-o', 'csv']);
    const rows = parse(stdout, { columns: true }) as Record<string, string>[];
    expect(rows[0]).toMatchObject({ name: 'config-file', status: 'warn' });
    expect(rows[0]!.fix).toContain('chmod 600');
  });

  it('--fields picks from each check: in JSON inside "checks", in csv and table as the columns', async () => {
    const json = await world.clinic(['doctor', '--fields', 'name,status', '-o', 'json']);
    expect(json.code).toBe(0);
    const r = report(json.stdout);
    expect(r.ok).toBe(true);
    expect(r.checks.map((c) => c.name)).toEqual(ORDER);
    for (const c of r.checks) expect(Object.keys(c)).toEqual(['name', 'status']);
    const csv = await world.clinic(['doctor', '--fields', 'name,http_status', '-o', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('name,http_status');
    expect(csv.stdout.split('\r\n')).toContain('base-url,401');
    const table = await world.clinic(['doctor', '--fields', 'name,status', '-o', 'table']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/NAME +│ STATUS/);
    expect(table.stdout).toMatch(/tenant-setup +│ ok/);
    expect(table.stdout).not.toContain('setup complete');
  });
});

describe('clinic doctor against a server that answers oddly', () => {
  let api: FakeApi;
  let answer: FakeApiOptions['answer'];
  beforeAll(async () => {
    api = await startFakeApi({ answer: (request) => answer?.(request) });
  });
  afterAll(() => api.close());
  const doctor = async (args: string[] = ['-o', 'json'], env: Record<string, string> = {}) =>
    runCli(await api.configDir(), ['doctor', ...args], { env: { CLINIC_TOKEN: 'fake-token', ...env } });
  const accountData = (data: unknown) => (request: FakeRequest) =>
    request.authorized && request.path === '/api/v1/account' ? { body: { data } } : undefined;

  it('an answer that is not an account fails the account check, and tenant-setup says why it skipped', async () => {
    answer = accountData([1, 2]);
    const { code, stdout, stderr } = await doctor();
    expect(code).toBe(1);
    const r = report(stdout);
    expect(failed(r)).toEqual(['account']);
    expect(check(r, 'account').detail).toContain("the server's answer is not an account");
    expect(check(r, 'account').fix).toContain(`check that base_url (${api.baseUrl}) is the Clinic API`);
    expect(check(r, 'tenant-setup').detail).toBe('skipped: GET /v1/account did not answer with an account');
    expect(stdout + stderr).not.toContain('undefined');
  });

  it('an account without name, email or a tenant list reads sensibly', async () => {
    answer = accountData({ id: 1, name: null, tenants: 'x' });
    const { stdout } = await doctor(['-o', 'table']);
    expect(lines(stdout).find((l) => / account /.test(l))).toMatch(
      /^ok +account +GET \/v1\/account: user 1 \(no name or email\); tenants: none$/,
    );
    expect(stdout).not.toMatch(/undefined|null/);
  });

  it('tenant entries that are not objects with an id are left out instead of crashing the check', async () => {
    answer = accountData({
      id: 1,
      name: 'Ada',
      email: 'a@x',
      tenants: [null, 5, { id: {} }, { id: 1, name: 'One' }],
    });
    const { code, stdout } = await doctor();
    expect(code).toBe(0);
    const c = check(report(stdout), 'account');
    expect(c).toMatchObject({ status: 'ok', tenants: [{ id: 1, name: 'One' }] });
    expect(c.detail).toBe('GET /v1/account: Ada <a@x> (user 1); tenants: 1 One');
    expect(check(report(stdout), 'tenant-setup').detail).toContain('tenant 1 (One): setup complete');
  });

  it('an X-RateLimit-Reset that is no readable time is a warning, not "Invalid time value"', async () => {
    const headers = {
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
      'x-ratelimit-reset': '99999999999999',
    };
    answer = (request) => (request.authorized ? { headers, body: { data: FAKE_ACCOUNT } } : undefined);
    const { code, stdout } = await doctor();
    expect(code).toBe(0);
    const c = check(report(stdout), 'rate-limit');
    expect(c).toMatchObject({ status: 'warn', limit: 60, remaining: 59, reset_at: null });
    expect(c.detail).toBe('59 of 60 requests left; X-RateLimit-Reset (99999999999999) is no readable time');
    expect(c.fix).toContain("tell the API's operators");
  });

  it('a CLINIC_TOKEN whose exp is no readable time is a warning, not "Invalid time value"', async () => {
    answer = undefined;
    const claims = Buffer.from(JSON.stringify({ exp: 1e20, scope: 'openid *' })).toString('base64url');
    const { code, stdout } = await doctor(['-o', 'json'], { CLINIC_TOKEN: `e30.${claims}.sig` });
    expect(code).toBe(0);
    const c = check(report(stdout), 'token');
    expect(c).toMatchObject({ status: 'warn', expires_at: null, scopes: ['openid', '*'] });
    expect(c.detail).toContain('its expiry (the JWT exp claim) is no readable time');
  });

  it('a 500 without a message is shown once as HTTP 500, as a failure that may pass', async () => {
    answer = (request) =>
      request.path.startsWith('/api/v1/account-transaction-types')
        ? { status: 500, headers: { 'content-type': 'text/html' }, body: '<h1>oops</h1>' }
        : undefined;
    const { stdout } = await doctor();
    expect(check(report(stdout), 'tenant-setup')).toMatchObject({
      status: 'fail',
      transient: true,
      detail:
        "GET /v1/account-transaction-types failed for a moment: HTTP 500: server error (the server's own failure for now, not your setup)",
      fix: 'nothing to change: run doctor again in a moment',
    });
  });

  it('a redirect is reported with its address redacted, as the HTTP client does', async () => {
    const location = 'https://elsewhere.example/api/v1/account?token=s3cret-value&page=1';
    answer = (request) => (request.authorized ? undefined : { status: 302, headers: { location }, body: '' });
    const json = await doctor();
    const c = check(report(json.stdout), 'base-url');
    expect(c.status).toBe('warn');
    expect(c.detail).toContain('redirects /v1/account to https://elsewhere.example/api/v1/account?token=***');
    const table = await doctor(['-o', 'table']);
    expect(json.stdout + table.stdout).not.toContain('s3cret');
  });
});

describe('clinic doctor and the realtime endpoint', () => {
  it('a WebSocket endpoint answering HTTP 400 fails at once, not after 10 s', async () => {
    const api = await startFakeApi({ refuseUpgrade: 400 });
    try {
      const started = Date.now();
      const { code, stdout } = await runCli(
        await api.configDir({ realtime: true }),
        ['doctor', '-o', 'json'],
        {
          env: { CLINIC_TOKEN: 'fake-token' },
        },
      );
      expect(Date.now() - started).toBeLessThan(5000);
      expect(code).toBe(1);
      const c = check(report(stdout), 'realtime');
      expect(c.status).toBe('fail');
      expect(c.detail).toBe(
        `cannot connect to ws://127.0.0.1:${api.port}/app/key: answered HTTP 400 instead of a WebSocket`,
      );
    } finally {
      await api.close();
    }
  });

  it('a server that never completes the handshake: the real last state is reported', async () => {
    const api = await startFakeApi(); // upgrades are left unanswered
    try {
      const { stdout } = await runCli(
        await api.configDir({ realtime: true }),
        ['--request-timeout', '2', 'doctor', '-o', 'json'],
        { env: { CLINIC_TOKEN: 'fake-token' } },
      );
      const c = check(report(stdout), 'realtime');
      expect(c.status).toBe('fail');
      expect(c.detail).toMatch(
        /^could not connect to ws:\/\/127\.0\.0\.1:\d+\/app\/key within 2 s \(state connecting\)$/,
      );
    } finally {
      await api.close();
    }
  });
});

describe('clinic doctor with an unusable config directory', () => {
  it('a config dir that is a file: said in words, and every later check skips with that reason', async () => {
    const root = await tempDir();
    const dir = join(root, 'clinic');
    await writeFile(dir, 'not a directory');
    try {
      const { code, stdout, stderr } = await runCli(dir, ['doctor', '-o', 'json']);
      expect(code).toBe(1);
      const r = report(stdout);
      expect(check(r, 'config-file')).toMatchObject({
        status: 'fail',
        detail: `${dir} is not a directory, so ${join(dir, 'config.json')} cannot be in it`,
      });
      expect(check(r, 'config-file').fix).toContain(`ls -ld ${dir}`);
      for (const c of r.checks.slice(1))
        expect(c.detail, c.name).toBe('skipped: the config directory is not a directory');
      expect(stdout + stderr).not.toMatch(/ENOTDIR|EACCES/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  // Root reads any directory: as root the test runs clinic as `nobody` through runuser.
  const asRoot = process.getuid?.() === 0;
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find((path) => existsSync(path));
  // `nobody` must be able to read this checkout (a clone inside a 0700 folder, such as mktemp -d, is not).
  const nobodyReads =
    !asRoot ||
    (runuser !== undefined && spawnSync(runuser, ['-u', 'nobody', '--', 'test', '-r', BIN]).status === 0);
  if (asRoot && !nobodyReads)
    console.warn(`\n*** SKIPPED: the unreadable-config-dir test: user nobody cannot read ${BIN} ***\n`);
  it.skipIf(!nobodyReads)(
    'a config dir this user may not read: permission denied, with ls -ld and chmod 700',
    async () => {
      const root = await tempDir();
      await chmod(root, 0o755);
      const dir = join(root, 'config');
      await mkdir(dir);
      await writeFile(join(dir, 'config.json'), '{}');
      await chmod(dir, 0o000);
      try {
        const command = asRoot ? [runuser!, '-u', 'nobody', '--', process.execPath] : [process.execPath];
        const { code, stdout, stderr } = await collect(command, [BIN, 'doctor', '-o', 'table'], baseEnv(dir));
        expect(code).toBe(1);
        const first = lines(stdout)[0];
        expect(first).toMatch(/^fail +config-file +\S*\/config cannot be read: permission denied/);
        expect(first).toContain(`ls -ld ${dir} (its owner and mode); as its owner: chmod 700 ${dir}`);
        expect(lines(stdout)[1]).toMatch(/^skip +profile +skipped: the config directory cannot be read$/);
        expect(stdout + stderr).not.toContain('EACCES');
      } finally {
        await chmod(dir, 0o700);
        await rm(root, { recursive: true, force: true });
      }
    },
  );
});

describe('clinic doctor interrupted', () => {
  let api: FakeApi;
  beforeAll(async () => {
    // The signed-in GET /v1/account never answers: doctor is stuck in the account check.
    api = await startFakeApi({ answer: (request) => (request.authorized ? { hang: true } : undefined) });
  });
  afterAll(() => api.close());

  const interrupt = async (format: string) => {
    const running = start([process.execPath], [BIN, 'doctor', '-o', format], {
      ...baseEnv(await api.configDir()),
      CLINIC_TOKEN: 'fake-token',
    });
    const seen = api.requests.length;
    await until(() => api.requests.slice(seen).some((r) => r.authorized), 'the account request');
    const sent = Date.now();
    running.child.kill('SIGINT');
    const result = await running.result;
    return { ...result, ms: Date.now() - sent };
  };

  it('Ctrl-C prints the checks done so far, at once, and exits 130', async () => {
    const { code, stdout, stderr, ms } = await interrupt('table');
    expect(code).toBe(130);
    expect(ms).toBeLessThan(1000); // not the 2 s after which bin/clinic.js gives up waiting
    expect(lines(stdout).map((l) => l.split(/ +/)[1])).toEqual(ORDER.slice(0, 6));
    expect(lines(stderr)).toEqual(['error: interrupted after 6 of 10 checks']);
  });

  it('with -o json the partial report is valid JSON and says it was interrupted', async () => {
    const { code, stdout, ms } = await interrupt('json');
    expect(code).toBe(130);
    expect(ms).toBeLessThan(1000);
    const r = JSON.parse(stdout) as Report & { interrupted?: boolean };
    expect(r).toMatchObject({ ok: false, interrupted: true });
    expect(r.checks.map((c) => c.name)).toEqual(ORDER.slice(0, 6));
  });
});

interface Running {
  child: ChildProcess;
  result: Promise<CliResult>;
}

/** A process with its output collected, for tests that signal it. */
function start(command: string[], args: string[], env: Record<string, string | undefined>): Running {
  const child = spawn(command[0]!, [...command.slice(1), ...args], {
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const result = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code: shellStatus(code, signal), stdout, stderr })),
  );
  return { child, result };
}

const collect = (command: string[], args: string[], env: Record<string, string | undefined>) =>
  start(command, args, env).result;

async function until(predicate: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
