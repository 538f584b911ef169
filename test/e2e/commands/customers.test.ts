// customers list/get/create end to end: the built CLI against a sandbox, every output format and error path.
import { describe, expect, it } from 'vitest';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CREATE_CUSTOMER, exitStatus, lines, startWorld, tempDir } from '../../helpers/cli.js';
import { clinicSending, useWorld } from '../../helpers/world.js';

const RECORDER = fileURLToPath(new URL('../../helpers/record-imports.mjs', import.meta.url));

const world = useWorld(() => startWorld({ records: 57 }));

describe('customers list', () => {
  it('prints a JSON array of one page by default when stdout is not a terminal', async () => {
    const { code, stdout, stderr } = await world.clinic(['customers', 'list', '--per-page', '5']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const records = JSON.parse(stdout);
    expect(records.map((r: { id: number }) => r.id)).toEqual([1, 2, 3, 4, 5]);
  });

  /** `customers list --all -o ndjson` with these arguments, and the requests the sandbox received for it. */
  const exportAll = (...args: string[]) =>
    clinicSending(world, ['customers', 'list', '--all', ...args, '-o', 'ndjson']);

  it('streams every page with --all as NDJSON, each record exactly once', async () => {
    const { code, stdout, requests } = await exportAll('--per-page', '20');
    expect(code).toBe(0);
    const ids = lines(stdout).map((line) => JSON.parse(line).id);
    expect(ids).toHaveLength(57);
    expect(new Set(ids).size).toBe(57);
    const pages = requests.filter((r) => r.path === '/api/v1/customers');
    expect(pages.map((r) => new URLSearchParams(r.query).get('page'))).toEqual(['1', '2', '3']);
  });

  it('keeps filters on every page it builds, though the server links drop them', async () => {
    const { code, stdout, requests } = await exportAll('--per-page', '2', '--filter', 'sort_by=last_name');
    expect(code).toBe(0);
    expect(requests.length).toBeGreaterThan(2);
    for (const request of requests)
      expect(new URLSearchParams(request.query).get('sort_by')).toBe('last_name');
    const records = lines(stdout).map((line) => JSON.parse(line) as { id: number; last_name: string | null });
    expect(new Set(records.map((r) => r.id)).size).toBe(57);
    // One order across all 29 pages: each page was asked for sorted, so the pages join up sorted.
    const names = records.map((r) => r.last_name);
    expect(new Set(names).size).toBeGreaterThan(10);
    const ascending = (a: string | null, b: string | null) =>
      a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;
    expect(names).toEqual([...names].sort(ascending));
  });

  it('stops after --limit records, mid-page', async () => {
    const { code, stdout } = await world.clinic([
      'customers',
      'list',
      '--limit',
      '7',
      '--per-page',
      '5',
      '-o',
      'ndjson',
    ]);
    expect(code).toBe(0);
    expect(lines(stdout)).toHaveLength(7);
  });

  it('writes RFC 4180 CSV with dotted columns and quoted commas and quotes', async () => {
    const { code, stdout } = await world.clinic(['customers', 'list', '--all', '-o', 'csv']);
    expect(code).toBe(0);
    const rows = stdout.split('\r\n');
    expect(rows[0]).toContain('record_state.is_read_only');
    expect(rows.length).toBe(57 + 2); // header, records, trailing empty
    const quoted = rows.filter((row) => /"[^"]*(,|"")[^"]*"/.test(row));
    expect(quoted.length).toBeGreaterThan(0);
  });

  it('marks masked and read-only records in the table', async () => {
    const viewer = world.sandbox.issueToken({ userId: 3 });
    const { code, stdout } = await world.clinic(['customers', 'list', '--per-page', '15', '-o', 'table'], {
      env: { CLINIC_TOKEN: viewer },
    });
    expect(code).toBe(0);
    expect(stdout).toContain('NOTE');
    expect(stdout).toContain('masked');
    // The note may wrap inside its column: its words, read down the NOTE column of the erased record's rows.
    const lines = stdout.split('\n');
    const at = lines.findIndex((line) => line.includes('read-only:'));
    const noteOf = (line = '') => line.split('│').at(-2)?.trim() ?? '';
    const note = [noteOf(lines[at]), noteOf(lines[at + 1])].join(' ').trim();
    expect(note).toBe('read-only: CUSTOMER_ERASED');
  });

  it('picks nested fields with --fields, keeping them nested in JSON', async () => {
    const { stdout } = await world.clinic([
      'customers',
      'list',
      '--limit',
      '1',
      '--fields',
      'id,record_state.reason_code',
    ]);
    expect(JSON.parse(stdout)).toEqual([{ id: 1, record_state: { reason_code: null } }]);
  });

  it('prints the server body untouched with --raw', async () => {
    const { stdout } = await world.clinic(['customers', 'list', '--per-page', '2', '--raw']);
    const body = JSON.parse(stdout);
    expect(body.meta.per_page).toBe(2);
    expect(body.links).toHaveProperty('next');
  });
});

describe('customers get and create', () => {
  it('gets one customer as its data object', async () => {
    const { code, stdout } = await world.clinic(['customers', 'get', '3']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ id: 3 });
  });

  it('creates from --set and --data, then reads it back', async () => {
    const created = await world.clinic([
      'customers',
      'create',
      '--data',
      '{"first_name":"Ada","email":"ada@example.com"}',
      '--set',
      'last_name=Lovelace',
    ]);
    expect(created.code).toBe(0);
    const customer = JSON.parse(created.stdout);
    expect(customer).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
    const read = await world.clinic(['customers', 'get', String(customer.id), '--fields', 'last_name']);
    expect(JSON.parse(read.stdout)).toEqual({ last_name: 'Lovelace' });
  });

  it('reads --data from stdin', async () => {
    const { code, stdout } = await world.clinic(['customers', 'create', '--data', '-'], {
      input: '{"first_name":"Grace","last_name":"Hopper"}',
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).first_name).toBe('Grace');
  });

  it('--dry-run prints the request with the token redacted and sends nothing', async () => {
    world.newRequests();
    const human = await world.clinic([
      'customers',
      'create',
      '--set',
      'first_name=X',
      '--dry-run',
      '-o',
      'table',
    ]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/customers\n/);
    expect(human.stdout).toContain('x-tenant: 1');
    expect(human.stdout).toContain('authorization: Bearer ***');
    const json = await world.clinic(['customers', 'create', '--set', 'first_name=X', '--dry-run', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ method: 'POST', body: { first_name: 'X' } });
    expect(human.stdout + json.stdout).not.toContain(world.sandbox.info.token);
    expect(world.newRequests()).toEqual([]);
  });
});

describe('server errors become exit codes', () => {
  it('422: exit 7 and each field error', async () => {
    const { code, stderr } = await world.clinic(['customers', 'create', '--set', 'email=not-an-email']);
    expect(code).toBe(7);
    expect(lines(stderr)[0]).toMatch(/^error: .*\(HTTP 422\)$/);
    expect(stderr).toMatch(/^ {2}first_name: /m);
    expect(stderr).toMatch(/^ {2}email: /m);
  });

  it('422 with -o json also writes the error as one JSON object on stderr', async () => {
    const { code, stderr } = await world.clinic(['customers', 'create', '--set', 'email=x', '-o', 'json']);
    expect(code).toBe(7);
    const json = JSON.parse(lines(stderr).at(-1) as string);
    expect(json.error).toMatchObject({ status: 422 });
    expect(Object.keys(json.error.errors)).toContain('first_name');
  });

  it('404: exit 5, also for another tenant’s record', async () => {
    expect((await world.clinic(['customers', 'get', '999999'])).code).toBe(5);
    const otherTenant = await world.clinic(['customers', 'get', '1', '--tenant', '2']);
    expect(otherTenant.code).toBe(5);
    expect(otherTenant.stdout).toBe('');
  });

  it('428: exit 8 and the next step', async () => {
    const { code, stderr } = await world.clinic(['customers', 'list', '--tenant', '3']);
    expect(code).toBe(8);
    expect(stderr).toMatch(/^next step: .+/m);
  });

  it('403: exit 4 for a viewer creating a customer', async () => {
    const viewer = world.sandbox.issueToken({ userId: 3 });
    const { code, stderr } = await world.clinic(CREATE_CUSTOMER, {
      env: { CLINIC_TOKEN: viewer },
    });
    expect(code).toBe(4);
    expect(stderr).toMatch(/^error: /);
    // A role refusal: a clinic admin can help, no sign-in with other scopes can.
    expect(stderr).toContain("hint: your user's role in this clinic does not allow this: ask a clinic admin");
    expect(stderr).not.toContain('--scopes');
  });

  it('401: exit 3 for a rejected token, with the way on', async () => {
    const { code, stderr } = await world.clinic(['account'], { env: { CLINIC_TOKEN: 'clinic_pat_wrong' } });
    expect(code).toBe(3);
    // The token came from CLINIC_TOKEN: signing in would not change it.
    expect(stderr).toContain(
      'hint: the token in CLINIC_TOKEN was rejected: set CLINIC_TOKEN to a valid token',
    );
    expect(stderr).not.toContain('login');
  });

  it('with room in the window, a command neither locks nor writes the shared rate-limit file', async () => {
    const shared = join(world.configDir, 'rate-limit');
    await rm(shared, { recursive: true, force: true });
    world.sandbox.setRateLimit(1000);
    try {
      const file = join(await tempDir(), 'imports.txt');
      const { code, stderr } = await world.clinic(['customers', 'get', '1', '--debug'], {
        nodeArgs: ['--import', RECORDER],
        env: { RECORD_IMPORTS_FILE: file },
      });
      expect(code).toBe(0);
      expect(stderr).toMatch(/^debug: < x-ratelimit-remaining: 9\d\d$/m); // the answer did carry the headers
      expect(await readFile(file, 'utf8')).not.toContain('proper-lockfile');
      await expect(readdir(shared)).rejects.toThrow(/ENOENT/);
    } finally {
      world.sandbox.setRateLimit(0);
    }
  });

  it('429: exit 9 with the wait, when retries are off', async () => {
    world.sandbox.setRateLimit(1);
    try {
      await world.clinic(['customers', 'get', '1']);
      const { code, stderr } = await world.clinic(['customers', 'get', '1', '--max-retries', '0']);
      expect(code).toBe(9);
      expect(stderr).toMatch(
        /^rate limited: gave up; the server asked to wait \d+s before the next request$/m,
      );
    } finally {
      world.sandbox.setRateLimit(0);
    }
  });

  it('5xx on GET is retried; with retries exhausted exit 9 (503) or 1 (500)', async () => {
    world.sandbox.setFaults('5xx=1');
    try {
      world.newRequests();
      const { code, stderr } = await world.clinic(['customers', 'get', '1', '--max-retries', '1']);
      expect([1, 9]).toContain(code);
      expect(stderr).toMatch(/retrying in/);
      expect(world.newRequests()).toHaveLength(2);
    } finally {
      world.sandbox.setFaults(undefined);
    }
  });

  it('5xx on POST is never retried', async () => {
    world.sandbox.setFaults('5xx=1');
    try {
      world.newRequests();
      const { code } = await world.clinic([
        'customers',
        'create',
        '--set',
        'first_name=A',
        '--set',
        'last_name=B',
      ]);
      expect([1, 9]).toContain(code);
      expect(world.newRequests()).toHaveLength(1);
    } finally {
      world.sandbox.setFaults(undefined);
    }
  });

  it('a connection reset on GET is retried and then succeeds', async () => {
    const total = JSON.parse((await world.clinic(['customers', 'list', '--raw'])).stdout).meta.total;
    world.sandbox.setFaults('reset=0.4');
    try {
      const { code, stdout, stderr } = await world.clinic([
        'customers',
        'list',
        '--all',
        '--per-page',
        '20',
        '-o',
        'ndjson',
        '--max-retries',
        '8',
      ]);
      expect(code).toBe(0);
      expect(stderr).toMatch(/connection reset; retrying in/);
      expect(lines(stdout)).toHaveLength(total);
    } finally {
      world.sandbox.setFaults(undefined);
    }
  });
});

describe('output on failure', () => {
  it('prints nothing on stdout when the first page fails', async () => {
    const { code, stdout } = await world.clinic(['customers', 'list', '--tenant', '3']);
    expect(code).toBe(8);
    expect(stdout).toBe('');
  });

  it('Ctrl-C during an export closes the JSON array and exits 130', async () => {
    const { spawn } = await import('node:child_process');
    const { BIN, baseEnv } = await import('../../helpers/cli.js');
    world.sandbox.setFaults('slow=1');
    try {
      const child = spawn(
        process.execPath,
        [BIN, '--profile', 'sandbox', 'customers', 'list', '--all', '--per-page', '5'],
        {
          env: baseEnv(world.configDir) as NodeJS.ProcessEnv,
        },
      );
      let stdout = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('"id"')) child.kill('SIGINT');
      });
      const code = await exitStatus(child);
      expect(code).toBe(130);
      const records = JSON.parse(stdout);
      expect(records.length).toBeGreaterThanOrEqual(5);
      expect(records.length).toBeLessThan(57);
    } finally {
      world.sandbox.setFaults(undefined);
    }
  });
});
