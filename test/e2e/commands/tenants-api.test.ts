// account, tenants and `clinic api` against the sandbox.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lines, startWorld } from '../../helpers/cli.js';
import { useWorld } from '../../helpers/world.js';

const world = useWorld(() => startWorld({ records: 23 }));

describe('account and tenants', () => {
  it('account sends no X-Tenant', async () => {
    world.newRequests();
    const { code, stdout } = await world.clinic(['account']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).email).toContain('@');
    const [request] = world.newRequests();
    expect(request?.headers['x-tenant']).toBeUndefined();
    expect(request?.headers['user-agent']).toMatch(/^clinic\/\d+\.\d+\.\d+/);
  });

  it('tenants list marks the current tenant', async () => {
    const tenants = JSON.parse((await world.clinic(['tenants', 'list'])).stdout);
    expect(tenants.map((t: { slug: string }) => t.slug)).toEqual([
      'northside',
      'harbor-dental',
      'lakeview-physio',
    ]);
    expect(tenants.find((t: { current: boolean }) => t.current).id).toBe(1);
  });

  it('tenants use resolves a slug and saves its id', async () => {
    const { code } = await world.clinic(['tenants', 'use', 'harbor-dental']);
    expect(code).toBe(0);
    const config = JSON.parse(await readFile(join(world.configDir, 'config.json'), 'utf8'));
    expect(config.profiles.sandbox.tenant).toBe('2');
    world.newRequests();
    await world.clinic(['customers', 'list', '--limit', '1']);
    expect(world.newRequests()[0]?.headers['x-tenant']).toBe('2');
    await world.clinic(['tenants', 'use', '1']);
  });

  it('tenants use says an unknown tenant is not found: exit 5', async () => {
    const { code, stderr } = await world.clinic(['tenants', 'use', 'closed-clinic']);
    expect(code).toBe(5);
    expect(stderr).toContain('northside');
  });
});

describe('clinic api', () => {
  it('prints the body unchanged; fields become the query of a GET', async () => {
    const { code, stdout } = await world.clinic(['api', '-X', 'GET', '/v1/customers', '-F', 'per_page=2']);
    expect(code).toBe(0);
    const body = JSON.parse(stdout);
    expect(body.data).toHaveLength(2);
    expect(body.meta.total).toBe(23);
  });

  it('--paginate gives one array of every page, or NDJSON', async () => {
    const array = JSON.parse((await world.clinic(['api', 'v1/customers?per_page=10', '--paginate'])).stdout);
    expect(array).toHaveLength(23);
    const ndjson = await world.clinic(['api', '/v1/customers', '--paginate', '-o', 'ndjson']);
    expect(lines(ndjson.stdout)).toHaveLength(23);
  });

  it('POSTs string fields and reports an error status with its exit code', async () => {
    const ok = await world.clinic([
      'api',
      '-X',
      'POST',
      '/v1/customers',
      '-f',
      'first_name=Ada',
      '-f',
      'last_name=L',
    ]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).data.first_name).toBe('Ada');
    const bad = await world.clinic(['api', '-X', 'POST', '/v1/customers', '-F', 'first_name=5']);
    expect(bad.code).toBe(7);
    expect(bad.stdout).toBe('');
    expect(lines(bad.stderr)[0]).toMatch(/^error: .*\(HTTP 422\)$/);
    const body = lines(bad.stderr).find((line) => line.startsWith('{'));
    expect(JSON.parse(body as string).errors).toHaveProperty('last_name');
  });

  it.each([
    [['api', '/v1/account', '-o', 'csv'], '-o csv: this command writes json'],
    [['api', '/v1/customers', '--paginate', '-o', 'table'], '-o table: this command writes json or ndjson'],
    [['chat', 'tail', '-o', 'csv'], '-o csv: this command writes ndjson or table'],
  ])('refuses an -o it cannot write before anything is sent: %j', async (args, refusal) => {
    const sent = world.sandbox.requests.length;
    const { code, stdout, stderr } = await world.clinic(args);
    expect({ code, stdout, stderr: lines(stderr) }).toEqual({
      code: 2,
      stdout: '',
      stderr: [`error: ${refusal}`],
    });
    expect(world.sandbox.requests.length).toBe(sent);
  });

  it('takes -o json and -o ndjson alike, and leaves a CLINIC_OUTPUT default it cannot write alone', async () => {
    for (const args of [['-o', 'ndjson'], ['--json']]) {
      const { code, stdout } = await world.clinic(['api', '/v1/account', ...args]);
      expect(code).toBe(0);
      expect(JSON.parse(stdout).data.id).toBe(1);
    }
    const byDefault = await world.clinic(['api', '/v1/account'], { env: { CLINIC_OUTPUT: 'csv' } });
    expect(byDefault.code).toBe(0);
    expect(JSON.parse(byDefault.stdout).data.id).toBe(1);
  });
});

describe('errors and empty results keep stdout clean', () => {
  it('api --paginate writes nothing to stdout when the first page fails', async () => {
    const { code, stdout } = await world.clinic(['--tenant', '3', 'api', '/v1/customers', '--paginate']);
    expect(code).toBe(8);
    expect(stdout).toBe('');
  });

  it('writes the JSON error object when the profile chose json output', async () => {
    await world.clinic(['config', 'set', 'output', 'ndjson']);
    try {
      const { code, stderr } = await world.clinic(['customers', 'get', '999999']);
      expect(code).toBe(5);
      expect(JSON.parse(lines(stderr).at(-1) as string).error).toMatchObject({ status: 404, exit_code: 5 });
    } finally {
      await world.clinic(['config', 'unset', 'output']);
    }
  });

  it('an empty list: [] in JSON, a header of the asked fields in CSV, a note (not data) for a table', async () => {
    const none = ['customers', 'list', '--filter', 'search=no-such-customer-anywhere'];
    expect((await world.clinic([...none, '--json'])).stdout).toBe('[]\n');
    expect((await world.clinic([...none, '-o', 'csv', '--fields', 'id,email'])).stdout).toBe('id,email\r\n');
    const table = await world.clinic([...none, '-o', 'table']);
    expect(table.stdout).toBe('');
    expect(table.stderr).toBe('no customers found\n');
  });
});

describe('pipes', () => {
  it('stops quietly with exit 0 when stdout closes early', async () => {
    const { spawn } = await import('node:child_process');
    const { BIN, baseEnv } = await import('../../helpers/cli.js');
    const env = baseEnv(world.configDir);
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [BIN, '--profile', 'sandbox', 'customers', 'list', '--all', '-o', 'ndjson'],
        {
          env: env as NodeJS.ProcessEnv,
        },
      );
      let stderr = '';
      child.stderr.on('data', (c) => {
        stderr += c;
      });
      child.stdout.once('data', () => child.stdout.destroy());
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('EPIPE');
  });
});
