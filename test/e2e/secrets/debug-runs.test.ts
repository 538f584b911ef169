// Secrets stay secret: every command run with --debug (through a stored login and through CLINIC_TOKEN) keeps the
// tokens off stdout and stderr, off every command line (`ps`), and out of every file but credentials.json (0600).
// `clinic auth token` prints the token on stdout by design: it is checked for exactly that, and nothing else.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { lstat, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseEnv,
  BIN,
  type CliResult,
  lines,
  realtimeEnv,
  startWorld,
  tempDir,
  type TestWorld,
} from '../../helpers/cli.js';

let world: TestWorld;
let scratch: string;
/** The admin's token stored by `login --with-token` (the profile's own sign-in). */
let stored: string;
/** The seeded admin token, given through CLINIC_TOKEN. */
let envToken: string;
/** A viewer's token (user 3): reads only, 403 on writes. */
let viewer: string;
/** Already expired: 401. */
let expired: string;

const secrets = () => [stored, envToken, viewer, expired];

/** No token, nor a 16-character piece of one (a half-redacted token), anywhere in the text. */
function expectNoSecret(text: string, where: string): void {
  for (const token of secrets()) {
    expect(text, `${where} holds a token`).not.toContain(token);
    const body = token.replace(/^clinic_pat_/, '');
    for (let start = 0; start + 16 <= body.length; start += 8)
      expect(text, `${where} holds a piece of a token`).not.toContain(body.slice(start, start + 16));
  }
}

function expectClean(result: CliResult, label: string): void {
  expectNoSecret(result.stdout, `stdout of ${label}`);
  expectNoSecret(result.stderr, `stderr of ${label}`);
}

beforeAll(async () => {
  world = await startWorld();
  scratch = await tempDir('clinic-secrets-');
  envToken = world.sandbox.info.token;
  stored = world.sandbox.issueToken({ userId: 1 });
  viewer = world.sandbox.issueToken({ userId: 3 });
  expired = world.sandbox.issueToken({ userId: 1, expiresInSeconds: 0 });
  await writeFile(
    join(scratch, 'new.ndjson'),
    '{"first_name":"Bulk","last_name":"One"}\n{"first_name":"Bulk","last_name":"Two"}\n',
  );
});
afterAll(async () => {
  await world?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

interface Run {
  name: string;
  args: string[] | (() => string[]);
  /** Through CLINIC_TOKEN instead of the stored login. */
  token?: () => string;
  env?: () => Record<string, string>;
  input?: () => string;
  exit: number;
  /** Whether the trace must show at least one exchange (commands that send something). */
  sends?: boolean;
  check?: (result: CliResult) => void;
}

const lead = () => world.sandbox.fixtures.tenants[1]?.leads.unassigned ?? 0;

const runs: Run[] = [
  {
    name: 'login --with-token --insecure-storage (stdin)',
    args: ['login', '--with-token', '--insecure-storage'],
    input: () => `${stored}\n`,
    exit: 0,
    sends: true,
  },
  { name: 'account', args: ['account'], exit: 0, sends: true },
  { name: 'account (CLINIC_TOKEN)', args: ['account'], token: () => envToken, exit: 0, sends: true },
  { name: 'tenants list', args: ['tenants', 'list'], exit: 0, sends: true },
  { name: 'customers list', args: ['customers', 'list', '--per-page', '3'], exit: 0, sends: true },
  {
    name: 'customers list --all --limit 5 (CLINIC_TOKEN)',
    args: ['customers', 'list', '--all', '--limit', '5', '-o', 'ndjson'],
    token: () => envToken,
    exit: 0,
    sends: true,
  },
  { name: 'customers get', args: ['customers', 'get', '1'], exit: 0, sends: true },
  {
    name: 'customers create --dry-run',
    args: ['customers', 'create', '--set', 'first_name=Dry', '--set', 'last_name=Run', '--dry-run'],
    exit: 0,
    check: ({ stdout }) => expect(stdout).toMatch(/authorization.*Bearer/i),
  },
  {
    name: 'customers create',
    args: ['customers', 'create', '--set', 'first_name=Sec', '--set', 'last_name=Ret'],
    exit: 0,
    sends: true,
  },
  {
    name: 'customers create --from NDJSON',
    args: () => ['customers', 'create', '--from', join(scratch, 'new.ndjson')],
    exit: 0,
    sends: true,
    check: ({ stdout }) => expect(lines(stdout).map((line) => JSON.parse(line).status)).toEqual(['ok', 'ok']),
  },
  { name: 'users get', args: ['users', 'get', '1'], exit: 0, sends: true },
  { name: 'appointments list', args: ['appointments', 'list'], exit: 0, sends: true },
  { name: 'channels list', args: ['channels', 'list'], exit: 0, sends: true },
  { name: 'conversations messages', args: ['conversations', 'messages', '1'], exit: 0, sends: true },
  { name: 'conversations message', args: ['conversations', 'message', '1', '3'], exit: 0, sends: true },
  {
    name: 'conversations agent status',
    args: ['conversations', 'agent', 'status', '1'],
    exit: 0,
    sends: true,
  },
  {
    name: 'leads notes add',
    args: () => ['leads', 'notes', 'add', String(lead()), '--content', 'Called back about the token'],
    exit: 0,
    sends: true,
  },
  {
    name: 'form-templates update',
    args: ['form-templates', 'update', '1', '--description', 'Updated by the secrets test'],
    exit: 0,
    sends: true,
  },
  { name: 'announcements get', args: ['announcements', 'get', '1'], exit: 0, sends: true },
  {
    name: 'ai-reports pdf -O',
    args: () => ['ai-reports', 'pdf', '1', '-O', join(scratch, 'report.pdf')],
    exit: 0,
    sends: true,
  },
  { name: 'erasure list', args: ['erasure', 'list'], exit: 0, sends: true },
  { name: 'erasure get', args: ['erasure', 'get', '1'], exit: 0, sends: true },
  {
    name: 'erasure create --dry-run --yes',
    args: ['erasure', 'create', '--customer', '1', '--reason', 'asked by the patient', '--dry-run', '--yes'],
    exit: 0,
  },
  {
    name: 'sales stock-deduct --dry-run',
    args: ['sales', 'stock-deduct', '1', '--dry-run', '--yes'],
    exit: 0,
  },
  { name: 'transaction-types list', args: ['transaction-types', 'list'], exit: 0, sends: true },
  { name: 'api /v1/account', args: ['api', '/v1/account'], exit: 0, sends: true },
  {
    name: 'api with -H "X-Key: <token>" (the token in a custom header)',
    args: () => ['api', '/v1/account', '-H', `X-Key: ${stored}`],
    exit: 0,
    sends: true,
    check: ({ stderr }) => expect(stderr).toMatch(/^debug: > x-key: \*\*\*$/m),
  },
  {
    name: 'api with -H "X-Key: <token>" (CLINIC_TOKEN)',
    args: () => ['api', '/v1/channels', '-H', `X-Key: ${envToken}`],
    token: () => envToken,
    exit: 0,
    sends: true,
  },
  {
    name: 'api with the token as a query parameter (-f access_token=...)',
    args: () => ['api', '/v1/channels', '-X', 'GET', '-f', `access_token=${stored}`],
    exit: 0,
    sends: true,
    check: ({ stderr }) => expect(stderr).toMatch(/^debug: > GET \S*access_token=\*\*\*/m),
  },
  {
    name: 'a base URL carrying the token as its password: refused, and not shown',
    args: () => {
      const url = new URL(world.sandbox.info.base_url);
      url.username = 'me';
      url.password = stored;
      return ['channels', 'list', '--base-url', url.toString()];
    },
    exit: 2,
  },
  {
    name: 'chat tail --timeout 2 (realtime authorization with the token)',
    args: ['chat', 'tail', '--timeout', '2', '-o', 'ndjson'],
    env: () => realtimeEnv(world.sandbox),
    exit: 0,
    sends: true,
  },
  { name: 'auth status', args: ['auth', 'status'], exit: 0, sends: true },
  { name: 'auth status (CLINIC_TOKEN)', args: ['auth', 'status'], token: () => envToken, exit: 0 },
  { name: 'config list', args: ['config', 'list'], exit: 0 },
  { name: 'config list --json', args: ['config', 'list', '--json'], exit: 0 },
  {
    name: 'error path: 404',
    args: ['customers', 'get', '999999'],
    exit: 5,
    sends: true,
    check: ({ stderr }) => expect(stderr).toMatch(/^error: .*\(HTTP 404/m),
  },
  {
    name: 'error path: 403 with a viewer token (CLINIC_TOKEN)',
    args: ['customers', 'create', '--set', 'first_name=No', '--set', 'last_name=Way', '-o', 'json'],
    token: () => viewer,
    exit: 4,
    sends: true,
    check: ({ stderr }) => expect(stderr).toMatch(/^error: .*\(HTTP 403/m),
  },
  {
    name: 'error path: 403 with a viewer token on the erasure API (CLINIC_TOKEN)',
    args: ['api', '-X', 'POST', '/v1/data-erasure-requests', '-F', 'customer_id=2'],
    token: () => viewer,
    exit: 4,
    sends: true,
  },
  {
    name: 'error path: 401 with an expired token (CLINIC_TOKEN)',
    args: ['account'],
    token: () => expired,
    exit: 3,
    sends: true,
  },
  {
    // CLINIC_TOKEN: a stored sign-in is never sent to another server (exit 3 before any request).
    name: 'error path: a network failure (nothing listening)',
    args: ['account', '--base-url', 'http://127.0.0.1:9/api', '--max-retries', '0'],
    token: () => envToken,
    exit: 1,
    sends: true,
  },
];

describe('no command shows a token under --debug', () => {
  it('runs at least 25 different commands', () => {
    expect(runs.length).toBeGreaterThanOrEqual(25);
  });

  for (const run of runs) {
    it(run.name, async () => {
      const args = typeof run.args === 'function' ? run.args() : run.args;
      const result = await world.clinic([...args, '--debug'], {
        env: { ...run.env?.(), ...(run.token ? { CLINIC_TOKEN: run.token() } : {}) },
        input: run.input?.(),
      });
      const context = `exit ${result.code}\nstderr: ${result.stderr.slice(0, 2000)}`;
      expectClean(result, run.name);
      expect(result.code, context).toBe(run.exit);
      if (run.sends) {
        // The trace is on, and what it shows of the authorization header is its scheme alone.
        expect(result.stderr, context).toMatch(/^debug: > (GET|POST|PUT|PATCH|DELETE) /m);
        expect(result.stderr, context).toMatch(/^debug: > authorization: Bearer \*\*\*$/m);
      }
      run.check?.(result);
    });
  }

  it('CLINIC_DEBUG=1 traces without a token too', async () => {
    const result = await world.clinic(['customers', 'list', '--per-page', '2'], {
      env: { CLINIC_DEBUG: '1', CLINIC_TOKEN: envToken },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^debug: > authorization: Bearer \*\*\*$/m);
    expectClean(result, 'CLINIC_DEBUG=1 customers list');
  });
});

describe('auth token prints the token, and only it, by design', () => {
  it('the stored token', async () => {
    const { code, stdout, stderr } = await world.clinic(['auth', 'token', '--debug']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${stored}\n`);
    expectNoSecret(stderr, 'stderr of auth token');
  });

  it('the CLINIC_TOKEN token', async () => {
    const { code, stdout, stderr } = await world.clinic(['auth', 'token', '--debug'], {
      env: { CLINIC_TOKEN: envToken },
    });
    expect(code).toBe(0);
    expect(stdout).toBe(`${envToken}\n`);
    expectNoSecret(stderr, 'stderr of auth token (CLINIC_TOKEN)');
  });
});

/** Starts `clinic --profile sandbox ...` as the user would, to watch it while it runs. */
function startSlow(
  args: string[],
  env: Record<string, string> = {},
): ChildProcess & { output: () => string } {
  const fullEnv = { ...baseEnv(world.configDir), ...env };
  for (const key of Object.keys(fullEnv)) if (fullEnv[key] === undefined) delete fullEnv[key];
  const child = spawn(process.execPath, [BIN, '--profile', 'sandbox', ...args], {
    env: fullEnv,
    stdio: 'pipe',
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.stdin.end();
  return Object.assign(child, { output: () => output });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every process's command line, sampled `times` times while the slow command waits. */
async function sampleCommandLines(child: ChildProcess, times: number): Promise<string[]> {
  const samples: string[] = [];
  for (let i = 0; i < times; i++) {
    samples.push(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }));
    await sleep(150);
  }
  expect(child.exitCode, 'the slow command ended before it could be watched').toBeNull();
  return samples;
}

describe('no token on any command line (ps)', () => {
  for (const [how, env] of [
    ['stored login', () => ({})],
    ['CLINIC_TOKEN', () => ({ CLINIC_TOKEN: envToken })],
  ] as const) {
    it(`customers list --all held by the rate limit (${how})`, async () => {
      world.sandbox.setRateLimit(2);
      const child = startSlow(['customers', 'list', '--all', '--per-page', '1', '--debug'], env());
      try {
        // Two requests use the window; the third waits for the reset (a minute away).
        for (let i = 0; i < 100 && !/waiting \d+s for the rate-limit window/.test(child.output()); i++)
          await sleep(50);
        expect(child.output()).toMatch(/waiting \d+s for the rate-limit window/);
        const samples = await sampleCommandLines(child, 6);
        expect(samples.some((sample) => sample.includes(BIN))).toBe(true); // the sample saw the command
        for (const sample of samples) expectNoSecret(sample, 'ps -eo args');
        expectNoSecret(child.output(), 'the output of the slow command so far');
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) =>
          child.exitCode !== null ? resolve(null) : child.once('close', resolve),
        );
        world.sandbox.setRateLimit(0);
      }
    });
  }
});

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(path)));
    else found.push(path);
  }
  return found;
}

describe('no token in any file but credentials.json', () => {
  it('walks the config dir and the test directories', async () => {
    const roots = [dirname(world.configDir), scratch];
    const files = (await Promise.all(roots.map(filesUnder))).flat();
    // The runs above left what they should: the config, the credentials, the PDF and the bulk journal.
    const names = files.map((file) => file.slice(file.lastIndexOf('/') + 1));
    expect(names).toEqual(expect.arrayContaining(['config.json', 'credentials.json', 'report.pdf']));
    expect(names.some((name) => name.endsWith('.journal'))).toBe(true);

    const credentials = join(world.configDir, 'credentials.json');
    for (const file of files) {
      if (file === credentials) continue;
      expectNoSecret((await readFile(file)).toString('latin1'), file);
    }
    expect((await lstat(credentials)).mode & 0o777).toBe(0o600);
    // It holds the stored sign-in only: never the CLINIC_TOKEN one (used as is, never stored).
    const text = await readFile(credentials, 'utf8');
    expect(text).toContain(stored);
    for (const token of [envToken, viewer, expired]) expect(text).not.toContain(token);
  });
});
