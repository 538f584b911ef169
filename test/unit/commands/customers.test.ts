// Commands run in-process against a FakeTransport: parsing, requests sent, output and exit codes, all without a spawn.
import { describe, expect, it } from 'vitest';
import { runInProcess, useInProcess } from '../../helpers/in-process.js';
import { fakeClock } from '../../helpers/fake-clock.js';
import { newFakeTransport, queueReplies, type SeenRequest } from '../../helpers/mock-api.js';

const cli = useInProcess();

const page = (data: unknown[], current: number, last: number) => ({
  success: true,
  data,
  links: { next: current < last ? 'x' : null },
  meta: { current_page: current, last_page: last, total: 3, per_page: 2 },
});

describe('customers list in-process', () => {
  it('follows pages with --all, sends X-Tenant and the token, prints NDJSON', async () => {
    const transport = newFakeTransport();
    const seen: SeenRequest[] = [];
    queueReplies(transport, seen, 'GET', /^\/api\/v1\/customers\?/, [
      { status: 200, body: page([{ id: 1 }, { id: 2 }], 1, 2) },
      { status: 200, body: page([{ id: 3 }], 2, 2) },
    ]);
    const result = await runInProcess(['customers', 'list', '--all', '--per-page', '2', '-o', 'ndjson'], {
      env: cli.env,
      transport,
    });
    expect(result).toEqual({ code: 0, stdout: '{"id":1}\n{"id":2}\n{"id":3}\n', stderr: '' });
    expect(seen.map((r) => r.path)).toEqual([
      '/api/v1/customers?page=1&per_page=2',
      '/api/v1/customers?page=2&per_page=2',
    ]);
    expect(seen[0]?.headers).toMatchObject({ authorization: 'Bearer tok', 'x-tenant': '7' });
  });

  it('a table by default on a terminal', async () => {
    const transport = newFakeTransport();
    queueReplies(transport, [], 'GET', /^\/api\/v1\/customers/, [
      { status: 200, body: page([{ id: 1, first_name: 'Ada', last_name: 'King', email: 'a@x.test' }], 1, 1) },
    ]);
    const { code, stdout } = await runInProcess(['customers', 'list'], {
      env: cli.env,
      transport,
      tty: true,
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/ID\s+│ NAME/);
    expect(stdout).toContain('Ada King');
  });

  it('waits out a 429 with Retry-After on the injected clock, then succeeds', async () => {
    const transport = newFakeTransport();
    const clock = fakeClock();
    queueReplies(transport, [], 'GET', /^\/api\/v1\/customers\/5$/, [
      { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'retry-after': '7' } },
      { status: 200, body: { success: true, data: { id: 5 } } },
    ]);
    const result = await runInProcess(['customers', 'get', '5'], { env: cli.env, transport, clock });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: 5 });
    expect(clock.sleeps).toEqual([7000]);
    expect(result.stderr).toMatch(/HTTP 429; retrying in 7s/);
  });

  it('maps a coded 428 to exit 8 with the next step, and -o json adds the JSON error', async () => {
    const transport = newFakeTransport();
    queueReplies(transport, [], 'GET', /^\/api\/v1\/customers/, [
      {
        status: 428,
        body: {
          success: true,
          error_code: 'SETUP_REQUIRED',
          message: 'Setup.',
          data: { next_step: 'Billing' },
        },
      },
    ]);
    const { code, stdout, stderr } = await runInProcess(['customers', 'list', '-o', 'json'], {
      env: cli.env,
      transport,
    });
    expect(code).toBe(8);
    expect(stdout).toBe('');
    expect(stderr.split('\n')).toContain('next step: Billing');
    expect(JSON.parse(stderr.trim().split('\n').at(-1) as string).error).toMatchObject({
      status: 428,
      code: 'SETUP_REQUIRED',
    });
  });

  it('bad input sends nothing (the FakeTransport would refuse any request)', async () => {
    const transport = newFakeTransport();
    const { code, stderr } = await runInProcess(['customers', 'get', 'x1'], {
      env: cli.env,
      transport,
    });
    expect(code).toBe(2);
    expect(stderr).toBe("error: customer ID must be a positive whole number, got 'x1'\n");
  });
});

describe('usage errors with JSON output asked for', () => {
  it("an unknown option prints commander's line and the JSON error object", async () => {
    const { code, stderr } = await runInProcess(['customers', 'list', '--bogus', '-o', 'json'], {
      env: cli.env,
    });
    expect(code).toBe(2);
    const [line, json] = stderr.trim().split('\n');
    expect(line).toBe("error: unknown option '--bogus'");
    expect(JSON.parse(json as string).error).toMatchObject({ code: 'usage', exit_code: 2 });
  });

  it('a bad global option with --json gives the JSON error object too', async () => {
    const { code, stderr } = await runInProcess(['--max-retries', 'x', '--json', 'account'], {
      env: cli.env,
    });
    expect(code).toBe(2);
    expect(JSON.parse(stderr.trim().split('\n').at(-1) as string).error.message).toContain('--max-retries');
  });

  it('no JSON object without a JSON format', async () => {
    const { stderr } = await runInProcess(['customers', 'list', '--bogus'], { env: cli.env });
    expect(stderr).toBe("error: unknown option '--bogus'\n");
  });
});
