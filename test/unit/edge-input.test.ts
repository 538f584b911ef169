// Edge input and hostile answers found in review: each case fails without its fix.
import { execFileSync, spawnSync } from 'node:child_process';
import { openSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { fakeClock } from './fake-clock.js';
import { BASE_URL, newMockAgent, queueReplies, type SeenRequest } from './mock-api.js';

let env: Record<string, string>;
let dir: string;
let agent: MockAgent;
let seen: SeenRequest[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'clinic-edge-'));
  env = {
    CLINIC_CONFIG_DIR: join(dir, 'c'),
    CLINIC_BASE_URL: BASE_URL,
    CLINIC_TOKEN: 'tok',
    CLINIC_TENANT: '7',
  };
  agent = newMockAgent();
  seen = [];
});
afterEach(() => agent.assertNoPendingInterceptors());
const run = (argv: string[], tty = false) =>
  runInProcess(argv, { env, dispatcher: agent, clock: fakeClock(), tty });

it('a one-record table never carries control characters, in its NOTE row too', async () => {
  const evil = '\u001b]0;PWNED\u0007\u001b[31mRED\u009b2J\u202eevil\tTAB';
  queueReplies(agent, seen, 'GET', '/api/v1/users/1', [
    {
      status: 200,
      body: {
        success: true,
        data: { id: 1, name: evil, record_state: { is_read_only: true, reason_code: evil } },
      },
    },
  ]);
  const { code, stdout } = await run(['users', 'get', '1'], true);
  expect(code).toBe(0);
  expect(stdout).toContain('NOTE');
  // eslint-disable-next-line no-control-regex -- the point of the test
  expect(stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e\t]/);
});

it.each([
  [['users', 'get', '9007199254740993']],
  [['erasure', 'create', '--customer', '99999999999999999999', '--yes']],
  [['customers', 'list', '--page', '99999999999999999999']],
  [['erasure', 'create', '--customer', '5', '--customer', '6', '--yes']],
  [['erasure', 'list', '--status', 'failed', '--status', 'completed']],
  [['erasure', 'list', '--created-from', '2026-01-01T00:00+99:99']],
  [['ai-reports', 'pdf', '2', '-O', '/nonexistent/dir/x.pdf']],
  [['ai-reports', 'pdf', '2', '-O', 'sub/']],
])('%j: exit 2, one line, nothing sent', async (argv) => {
  const result = await run(argv);
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(seen).toEqual([]);
});

it('a date and a date-time without an offset compare in one time zone, whatever TZ is', async () => {
  queueReplies(agent, seen, 'GET', /^\/api\/v1\/data-erasure-requests\?/, [
    { status: 200, body: { success: true, data: [], meta: { current_page: 1, last_page: 1, total: 0 } } },
  ]);
  const argv = [
    'erasure',
    'list',
    '--created-from',
    '2026-01-01',
    '--created-to',
    '2026-01-01T05:00:00',
    '-o',
    'json',
  ];
  expect((await run(argv)).code).toBe(0);
});

it('--force replaces a regular file only: never a FIFO or a device', async () => {
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const result = await run(['ai-reports', 'pdf', '2', '-O', fifo, '--force']);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('not a regular file');
  expect((await run(['ai-reports', 'pdf', '2', '-O', '/dev/null', '--force'])).code).toBe(2);
  expect(seen).toEqual([]);
});

it('unpaginated lists take --limit and --filter like any list', async () => {
  queueReplies(agent, seen, 'GET', /^\/api\/v1\/channels/, [
    { status: 200, body: { success: true, data: [{ id: 1 }, { id: 2 }, { id: 3 }] } },
  ]);
  const result = await run(['channels', 'list', '--limit', '2', '--filter', 'type=sms', '-o', 'ndjson']);
  expect(result).toMatchObject({ code: 0, stdout: '{"id":1}\n{"id":2}\n' });
  expect(seen[0]?.path).toBe('/api/v1/channels?type=sms');
});

it('erasure watch -o json on an unknown id prints nothing to stdout', async () => {
  queueReplies(agent, seen, 'GET', '/api/v1/data-erasure-requests/9', [
    { status: 404, body: { message: 'nope' } },
  ]);
  const result = await run(['erasure', 'watch', '9', '-o', 'json']);
  expect(result).toMatchObject({ code: 5, stdout: '' });
});

describe('--debug', () => {
  it('a line break in a server message cannot forge a line of its own', async () => {
    queueReplies(agent, seen, 'GET', '/api/v1/users/1', [
      { status: 500, body: { message: 'boom\nerror: forged line' } },
    ]);
    const result = await run(['users', 'get', '1', '--debug', '--max-retries', '0']);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('error:'))).toHaveLength(1);
  });
});

it('a full disk on stdout is one error line and exit 1, no stack trace', () => {
  const result = spawnSync(process.execPath, [BIN, '--version', '--help'], {
    stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'],
    encoding: 'utf8',
  });
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/^error: cannot write the output \(ENOSPC\)\n$/);
});

describe('clear-text addresses', () => {
  it.each([
    [['--base-url', 'http://api.example.com/api', 'account'], {}],
    [['account'], { CLINIC_BASE_URL: 'http://10.0.0.5/api' }],
    [['config', 'set', 'base_url', 'http://api.example.com/api'], {}],
    [['config', 'set', 'realtime.auth_endpoint', 'http://rt.example.com/auth'], {}],
  ])('%j %j: refused, exit 2, nothing sent', async (argv, extra) => {
    const result = await runInProcess(argv, {
      env: { ...env, ...extra },
      dispatcher: agent,
      clock: fakeClock(),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('must use https');
    expect(seen).toEqual([]);
  });

  it('loopback stays allowed (the sandbox)', async () => {
    const result = await run(['config', 'set', 'base_url', 'http://127.0.0.1:8080/api']);
    expect(result.code).toBe(0);
  });
});

describe('secrets in traces', () => {
  it('--dry-run never prints a password in base_url', async () => {
    const result = await runInProcess(['sales', 'stock-deduct', '1', '--dry-run', '--yes'], {
      env: { ...env, CLINIC_BASE_URL: 'https://ops:S3cretPW@api.clinic.test/api' },
      dispatcher: agent,
      clock: fakeClock(),
    });
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain('S3cretPW');
    expect(result.stdout + result.stderr).not.toContain('ops:');
  });

  it('--debug hides a header whose value is the token, whatever its name', async () => {
    const token = 'tok-0123456789abcdef';
    queueReplies(agent, seen, 'GET', '/api/v1/account', [
      { status: 200, body: { success: true, data: { id: 1 } } },
    ]);
    const result = await runInProcess(['api', '/v1/account', '-H', `X-Key: ${token}`, '--debug'], {
      env: { ...env, CLINIC_TOKEN: token },
      dispatcher: agent,
      clock: fakeClock(),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('x-key: ***');
    expect(result.stderr).not.toContain(token);
  });
});

describe('loose file modes', () => {
  it('a config directory at 0755 and files at 0644 are tightened, with one warning each run', async () => {
    const { chmod, stat, writeFile, mkdir } = await import('node:fs/promises');
    const config = join(dir, 'loose');
    await mkdir(config, { recursive: true });
    await chmod(config, 0o755);
    const profile = JSON.stringify({ profiles: { default: { tenant: '7', base_url: BASE_URL } } });
    await writeFile(join(config, 'config.json'), profile, { mode: 0o644 });
    await writeFile(join(config, 'credentials.json'), '{"default":{"access_token":"t0k"}}', { mode: 0o644 });
    await chmod(join(config, 'config.json'), 0o644);
    await chmod(join(config, 'credentials.json'), 0o644);
    queueReplies(agent, seen, 'GET', '/api/v1/account', [
      { status: 200, body: { success: true, data: { id: 1 } } },
    ]);
    const looseEnv = {
      ...env,
      CLINIC_CONFIG_DIR: config,
      CLINIC_TOKEN: undefined,
      CLINIC_BASE_URL: undefined,
      CLINIC_CREDENTIAL_STORE: 'file',
    };
    const result = await runInProcess(['account', '-o', 'json'], {
      env: looseEnv,
      dispatcher: agent,
      clock: fakeClock(),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/warning: .*config\.json was 644/);
    expect(result.stderr).toMatch(/warning: .*credentials\.json was 644/);
    expect((await stat(join(config, 'config.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(config, 'credentials.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(config)).mode & 0o777).toBe(0o700);
  });
});

it('a login that lands in another account than before says so', async () => {
  const account = (name: string) => ({
    status: 200,
    body: { success: true, data: { id: 1, name, email: `${name}@x.test` } },
  });
  queueReplies(agent, seen, 'GET', '/api/v1/account', [account('ada'), account('ada'), account('bob')]);
  const login = (token: string) =>
    runInProcess(['login', '--with-token', '--insecure-storage'], {
      env: { ...env, CLINIC_TOKEN: '' },
      dispatcher: agent,
      clock: fakeClock(),
      stdin: token,
    });
  expect((await login('token-of-ada-1')).stderr).not.toContain('warning');
  expect((await login('token-of-ada-2')).stderr).not.toContain('warning');
  const third = await login('token-of-bob-1');
  expect(third.code).toBe(0);
  expect(third.stderr).toContain(
    'warning: profile default was signed in as ada <ada@x.test> before; it is now bob <bob@x.test>',
  );
});
