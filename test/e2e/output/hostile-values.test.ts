// Any JSON value in any field, end to end: the built CLI shows records whose fields are {"toString":1}, null slugs
// and escape sequences without crashing, and without letting a control character reach a terminal (a pty from
// util-linux `script`); into a pipe, CSV stays exact. Chat tail runs against the sandbox's realtime server.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, exitStatus, runCli } from '../../helpers/cli.js';
import { type FakeApi, type FakeRequest, startFakeApi } from '../../helpers/fake-api.js';
import { realtimeWorld, useWorld } from '../../helpers/world.js';

// eslint-disable-next-line no-control-regex -- the point of the test
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const ESCAPE = '\u001b]2;pwned\u0007\u001b[2J';
const TOKEN = { CLINIC_TOKEN: 'clinic_pat_hostileVALUES0123456789' };

/** A customer whose every field is something other than what it should be. */
const HOSTILE_CUSTOMER = JSON.parse(
  `{"id":{"toString":1},"first_name":{"toString":1,"valueOf":1},"last_name":{"valueOf":1},` +
    `"email":${JSON.stringify(ESCAPE)},"phone_number":[{"constructor":1}],"created_at":{"toJSON":1},` +
    `"record_state":{"is_read_only":true,"reason_code":{"then":1}},"__proto__":{"polluted":1},"big":1e400}`,
) as Record<string, unknown>;

const ACCOUNT = {
  id: 7,
  name: { toString: 1 },
  email: 'ada@example.com',
  tenants: [
    { id: 1, name: 'Null Slug Clinic', slug: null },
    { id: 2, name: { toString: 1 }, slug: 'northside' },
    { id: 3, name: 'Number Slug', slug: 42 },
    { id: { toString: 1 }, name: 'No Id', slug: 'weird' },
    null,
    'a string',
  ],
};

function answer(request: FakeRequest) {
  const path = request.path.split('?')[0];
  if (path === '/api/v1/account') return { body: { success: true, data: ACCOUNT } };
  if (path === '/api/v1/data-erasure-requests/5')
    return {
      body: {
        success: true,
        data: {
          id: { toString: 1 },
          status: 'processing',
          customer_id: { valueOf: 1 },
          state_allows: { cancel: false },
        },
      },
    };
  if (path === '/api/v1/customers/1') return { body: { success: true, data: HOSTILE_CUSTOMER } };
  if (path === '/api/v1/customers')
    return {
      body: {
        success: true,
        data: [HOSTILE_CUSTOMER, { id: 2, first_name: null, last_name: { toString: 1 }, email: ESCAPE }],
        meta: { current_page: 1, last_page: 1, per_page: 15, total: 2 },
      },
    };
  return undefined;
}

/** Runs the CLI on a pseudo-terminal (util-linux `script`); what the terminal received. */
function onTerminal(configDir: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, BIN, ...args].map((word) => `'${word}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...baseEnv(configDir), ...TOKEN } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const noCrash = (stderr: string) =>
  expect(stderr).not.toMatch(/TypeError|Cannot convert|is not a function|\n\s+at /);

describe('hostile values from a fake API', () => {
  let api: FakeApi;
  let configDir: string;
  const clinic = (args: string[]) => runCli(configDir, args, { env: TOKEN });
  beforeAll(async () => {
    api = await startFakeApi({ answer });
    configDir = await api.configDir();
  });
  afterAll(() => api.close());

  /** Runs `args`: exit 0, and no crash on stderr. */
  async function succeeds(args: string[]) {
    const result = await clinic(args);
    noCrash(result.stderr);
    expect(result.code).toBe(0);
    return result;
  }

  it('customers get: the record view shows {"toString":1} fields as JSON, safely', async () => {
    const result = await succeeds(['customers', 'get', '1', '-o', 'table']);
    // nested objects are dotted rows; a list of objects one sub-row per item
    expect(result.stdout).toMatch(/id\.toString +│ 1 /);
    expect(result.stdout).toMatch(/│ {3}1 +│ constructor: 1 +│/);
    expect(result.stdout).toContain('__proto__.polluted');
    expect(result.stdout).not.toMatch(CONTROL);
  });

  it('customers list: a table of such records', async () => {
    const result = await succeeds(['customers', 'list', '-o', 'table']);
    expect(result.stdout).toContain('│ {"toString":1} │ {"toString":1,"valueOf":1} {"value');
    expect(result.stdout).toContain('│ 2              │ {"toString":1}  ');
    expect(result.stdout).not.toMatch(CONTROL);
  });

  it('customers list on a terminal (the default table): no control character reaches it', async () => {
    const { code, output } = await onTerminal(configDir, ['customers', 'list']);
    expect(code).toBe(0);
    expect(output).toContain('{"toString":1}');
    expect(output.replaceAll('\r\n', '\n')).not.toMatch(CONTROL);
  });

  it('-o csv to a terminal: sanitized like a table, no ESC byte', async () => {
    for (const args of [
      ['customers', 'get', '1', '-o', 'csv'],
      ['customers', 'list', '-o', 'csv'],
    ]) {
      const { code, output } = await onTerminal(configDir, args);
      expect(code).toBe(0);
      expect(output).toContain('?]2;pwned??[2J');
      expect(output).not.toContain('\u001b');
      expect(output.replaceAll('\r\n', '\n')).not.toMatch(CONTROL);
    }
  });

  it('-o csv into a pipe keeps the bytes exactly; --csv-raw does so on a terminal too', async () => {
    const piped = await clinic(['customers', 'list', '-o', 'csv']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain(`,${ESCAPE},`);
    expect(piped.stdout.endsWith('\r\n')).toBe(true);
    const raw = await onTerminal(configDir, ['customers', 'get', '1', '-o', 'csv', '--csv-raw']);
    expect(raw.output).toContain(ESCAPE);
  });

  it('tenants list: null, number and object slugs, ids and names, and entries that are no tenant', async () => {
    const result = await succeeds(['tenants', 'list', '-o', 'table']);
    expect(result.stdout).toContain('Null Slug Clinic');
    expect(result.stdout).toContain('{"toString":1}');
    const json = await clinic(['tenants', 'list', '-o', 'json']);
    expect(JSON.parse(json.stdout)).toEqual([
      { ...(ACCOUNT.tenants[0] as object), current: true },
      { ...(ACCOUNT.tenants[1] as object), current: false },
      { ...(ACCOUNT.tenants[2] as object), current: false },
      { ...(ACCOUNT.tenants[3] as object), current: false },
      null,
      'a string',
    ]);
  });

  it('tenants use: works by id whatever the slug; a slug that cannot match is refused; never a crash', async () => {
    const profileTenant = async () =>
      (
        JSON.parse(await readFile(join(configDir, 'config.json'), 'utf8')) as {
          profiles: { fake: { tenant: string } };
        }
      ).profiles.fake.tenant;

    await succeeds(['tenants', 'use', '3']);
    expect(await profileTenant()).toBe('3');

    const bySlug = await clinic(['tenants', 'use', 'NorthSide']);
    expect(bySlug.code).toBe(0);
    expect(bySlug.stderr).toContain('now uses tenant 2 ({"toString":1})');
    expect(await profileTenant()).toBe('2');

    const nullSlug = await clinic(['tenants', 'use', '1']);
    expect(nullSlug.code).toBe(0);
    expect(await profileTenant()).toBe('1');

    // 42 is tenant 3's slug as a number, and no tenant's id: slugs are text, so nothing matches.
    for (const wanted of ['42', 'null', 'nowhere']) {
      const refused = await clinic(['tenants', 'use', wanted]);
      noCrash(refused.stderr);
      expect(refused.code).toBe(5);
      // Only the tenants that can be chosen are named (not the one whose id is an object).
      expect(refused.stderr).toBe(
        `error: no tenant '${wanted}' in your account; yours: 1, 2 (northside), 3\n`,
      );
    }

    const noId = await clinic(['tenants', 'use', 'weird']);
    noCrash(noId.stderr);
    expect(noId.code).toBe(1);
    expect(noId.stderr).toBe(
      'error: unexpected response for the account: tenant {"toString":1} (weird) has no usable id ' +
        '(not a positive whole number), so it cannot be used\n',
    );
    expect(await profileTenant()).toBe('1');
  });

  it('account and auth status: a name that is {"toString":1}', async () => {
    for (const args of [
      ['account', '-o', 'table'],
      ['auth', 'status', '-o', 'table'],
    ]) {
      const result = await succeeds(args);
      expect(result.stdout).toContain('toString');
      expect(result.stdout).not.toMatch(CONTROL);
    }
  });

  it('erasure: a request whose id is {"toString":1} is shown, and an action it does not allow refused (exit 6)', async () => {
    await succeeds(['erasure', 'get', '5', '-o', 'table']);
    const refused = await clinic(['erasure', 'cancel', '5', '--reason', 'x', '--yes']);
    noCrash(refused.stderr);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain("cancel is not allowed while the request's status is processing");
  });

  it('login --with-token names a user whose name is {"toString":1}', async () => {
    const result = await runCli(configDir, ['login', '--with-token', '--insecure-storage'], {
      input: 'clinic_pat_hostileLOGIN0123456789abcdef\n',
    });
    noCrash(result.stderr);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('logged in as {"toString":1} <ada@example.com>');
  });
});

describe('an account answer that is no object', () => {
  it('auth status, account, tenants list, tenants use: an unexpected answer (exit 1), never a crash', async () => {
    const api = await startFakeApi({
      answer: (request) =>
        request.path.startsWith('/api/v1/account') ? { body: { success: true, data: null } } : undefined,
    });
    try {
      const configDir = await api.configDir();
      for (const args of [
        ['auth', 'status', '-o', 'json'],
        ['account', '-o', 'table'],
        ['tenants', 'list'],
      ]) {
        const result = await runCli(configDir, args, { env: TOKEN });
        noCrash(result.stderr);
        expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(1);
        expect(result.stderr).toContain(
          "error: unexpected response for the account: 'data' is null, not a record",
        );
      }
      const use = await runCli(configDir, ['tenants', 'use', '1'], { env: TOKEN });
      noCrash(use.stderr);
      expect(use.code).toBe(1);
      expect(use.stderr).toContain(
        "error: unexpected response for the account: 'data' is null, not a record",
      );
    } finally {
      await api.close();
    }
  });
});

describe('chat tail with hostile payloads (sandbox realtime)', () => {
  const world = useWorld(() => realtimeWorld({ erasureStepSeconds: 0 }));

  // The second conversation: the first has the AI assistant on, which answers every patient message.
  const conversation = () => world.sandbox.fixtures.tenants[1]?.conversations[1] as number;
  /** A message whose body is an object with a toString key, as a server could send it. */
  const postHostile = () =>
    world.sandbox.postMessage({
      tenantId: 1,
      conversationId: conversation(),
      body: { toString: 1, valueOf: 1, text: ESCAPE } as unknown as string,
      senderType: 'customer',
    });

  function tail(args: string[]): { child: ChildProcess; lines: string[]; stderr: () => string } {
    const child = spawn(
      process.execPath,
      [BIN, '--profile', 'sandbox', 'chat', 'tail', '-o', 'table', ...args],
      {
        env: baseEnv(world.configDir) as NodeJS.ProcessEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const lines: string[] = [];
    let stderr = '';
    createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    return { child, lines, stderr: () => stderr };
  }

  async function until(predicate: () => boolean, what: string, stderr: () => string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stderr: ${stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('a live message whose body is {"toString":1,…} prints as one safe line', async () => {
    const t = tail(['--timeout', '30']);
    const exit = exitStatus(t.child);
    await until(() => t.stderr().includes('connected'), 'the subscription', t.stderr);
    postHostile();
    await until(() => t.lines.some((line) => line.includes('toString')), 'the hostile event', t.stderr);
    t.child.kill('SIGINT');
    expect(await exit).toBe(130);
    noCrash(t.stderr());
    const line = t.lines.find((l) => l.includes('toString')) as string;
    expect(line).toContain('{"toString":1,"valueOf":1,"text":"');
    expect(line).not.toMatch(CONTROL);
  });

  it('the same message filled over REST (--since) prints too', async () => {
    const sent = postHostile();
    const t = tail([
      '--conversation',
      String(conversation()),
      '--since',
      String(sent.id - 1),
      '--timeout',
      '3',
    ]);
    const code = await exitStatus(t.child);
    noCrash(t.stderr());
    expect(code).toBe(0);
    const line = t.lines.find((l) => l.includes('(history)') && l.includes('toString'));
    expect(line, t.lines.join('\n')).toBeDefined();
    expect(line).not.toMatch(CONTROL);
  });
});
