// --jq from the built CLI against the sandbox, as a cron job without a jq binary uses it: a list, a record, `api`.
import { describe, expect, it } from 'vitest';
import { clinicSending, useWorld } from '../../helpers/world.js';

describe('--jq against the sandbox', () => {
  const world = useWorld();

  it('a list: every page of --all, filtered as one array; strings print raw', async () => {
    const all = await world.clinic(['customers', 'list', '--all', '-o', 'json']);
    const customers = JSON.parse(all.stdout) as { id: number; email: string | null }[];
    const count = await world.clinic(['customers', 'list', '--all', '--per-page', '10', '--jq', 'length']);
    expect(count).toMatchObject({ code: 0, stdout: `${customers.length}\n`, stderr: '' });
    const emails = await world.clinic(['customers', 'list', '--per-page', '5', '--jq', '.[].email // "-"']);
    expect(emails.stdout).toBe(
      `${customers
        .slice(0, 5)
        .map((c) => c.email ?? '-')
        .join('\n')}\n`,
    );
  });

  it('a record: its object', async () => {
    const run = await world.clinic([
      'customers',
      'get',
      '1',
      '--jq',
      '{id, read_only: .record_state.is_read_only}',
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ id: 1, read_only: expect.any(Boolean) });
    expect(run.stdout).toContain('\n  "id": 1,\n');
  });

  it('api, one body and --paginate', async () => {
    const account = await world.clinic(['api', '/v1/account', '--jq', '.data.tenants[0].slug']);
    expect(account.code).toBe(0);
    expect(account.stdout).toMatch(/^[a-z0-9-]+\n$/);
    const paged = await world.clinic([
      'api',
      '/v1/customers',
      '-F',
      'per_page=20',
      '--paginate',
      '--jq',
      'length',
    ]);
    const total = await world.clinic(['api', '/v1/customers', '--jq', '.meta.total']);
    expect(paged.stdout).toBe(total.stdout);
  });

  it('a program that does not compile: exit 2, one line, nothing sent', async () => {
    const run = await clinicSending(world, ['customers', 'list', '--jq', '.[] | map(']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: --jq: syntax error[^\n]*\n$/);
    expect(run.requests).toEqual([]);
  });
});
