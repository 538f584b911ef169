// --raw prints the server's JSON body as it came: a format other than JSON, or --fields, typed beside it is refused
// before any request (exit 2, one line), as --json with -o csv is; a format from CLINIC_OUTPUT or the profile is a
// default and yields to it; --jq filters the body it prints.
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useInProcess } from '../../helpers/in-process.js';
import { queueReplies } from '../../helpers/mock-api.js';

const cli = useInProcess();

const BODY = '{"success":true,"data":{"id":1,"first_name":"Ada","email":"ada@x.test"}}';

const replyCustomer = () =>
  queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/customers/1', [{ status: 200, body: BODY }]);

describe('--raw refused beside an output it would pass over', () => {
  it.each([
    [['-o', 'csv'], "error: --raw and --output csv disagree: --raw prints the server's JSON body as it came"],
    [
      ['-o', 'table'],
      "error: --raw and --output table disagree: --raw prints the server's JSON body as it came",
    ],
    [
      ['--output=ndjson'],
      "error: --raw and --output ndjson disagree: --raw prints the server's JSON body as it came",
    ],
    [
      ['--fields', 'id'],
      "error: --raw and --fields disagree: --raw prints the server's JSON body as it came",
    ],
  ])('clinic customers get 1 --raw %j: exit 2, one line, nothing sent', async (flags, line) => {
    const run = await cli.run(['customers', 'get', '1', '--raw', ...flags]);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    // (-o ndjson asked for JSON data: the error is also written as a JSON object, on a line of its own.)
    expect(run.stderr.split('\n').filter((text) => text.startsWith('error:'))).toEqual([line]);
    expect(cli.seen).toEqual([]);
  });

  it('a list too', async () => {
    const run = await cli.run(['customers', 'list', '--all', '-o', 'csv', '--raw']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: --raw and --output csv disagree/);
    expect(cli.seen).toEqual([]);
  });
});

describe('--raw with what agrees with it', () => {
  it.each([[[]], [['-o', 'json']], [['--json']]])('%j: the body as it came', async (flags) => {
    replyCustomer();
    const run = await cli.run(['customers', 'get', '1', '--raw', ...flags]);
    expect(run).toEqual({ code: 0, stdout: `${BODY}\n`, stderr: '' });
  });

  it('CLINIC_OUTPUT=csv is a default: it yields to --raw', async () => {
    replyCustomer();
    const run = await cli.run(['customers', 'get', '1', '--raw'], { env: { CLINIC_OUTPUT: 'csv' } });
    expect(run).toEqual({ code: 0, stdout: `${BODY}\n`, stderr: '' });
  });

  it("the profile's output yields to --raw too", async () => {
    await mkdir(join(cli.dir, 'config'), { recursive: true, mode: 0o700 });
    const config = { current_profile: 'default', profiles: { default: { output: 'table' } } };
    await writeFile(join(cli.dir, 'config', 'config.json'), JSON.stringify(config), { mode: 0o600 });
    replyCustomer();
    const run = await cli.run(['customers', 'get', '1', '--raw']);
    expect(run).toEqual({ code: 0, stdout: `${BODY}\n`, stderr: '' });
  });

  it('--jq filters the body --raw prints', async () => {
    replyCustomer();
    const run = await cli.run(['customers', 'get', '1', '--raw', '--jq', '.data.first_name']);
    expect(run).toEqual({ code: 0, stdout: 'Ada\n', stderr: '' });
  });
});

describe('--raw refused where the command prints no answer of the server', () => {
  it.each([
    [['config', 'list'], 'clinic config list'],
    [['config', 'profiles'], 'clinic config profiles'],
    [['config', 'get', 'base_url'], 'clinic config get'],
    [['config', 'set', 'tenant', '2'], 'clinic config set'],
    [['auth', 'status'], 'clinic auth status'],
    [['login', '--with-token'], 'clinic login'],
    [['tenants', 'list', '--offline'], 'clinic tenants list'],
    [['doctor'], 'clinic doctor'],
    [['chat', 'tail'], 'clinic chat tail'],
    [['erasure', 'watch', '1'], 'clinic erasure watch'],
    [['completion', 'bash'], 'clinic completion'],
    [['man'], 'clinic man'],
  ])('%j: exit 2, one line, nothing sent or written', async (args, path) => {
    for (const at of [args.length, 0]) {
      const run = await cli.run([...args.slice(0, at), '--raw', ...args.slice(at)]);
      expect(run).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: --raw prints the server's answer untouched, and '${path}' prints none: nothing was done\n`,
      });
    }
    expect(cli.seen).toEqual([]);
    // config set wrote nothing
    expect((await cli.run(['config', 'get', 'tenant'])).stdout).not.toContain('2');
  });

  it('with an option that makes the command print a report of its own (--from)', async () => {
    const file = join(cli.dir, 'new.ndjson');
    await writeFile(file, '{"first_name":"Ada"}\n');
    const run = await cli.run(['customers', 'create', '--from', file, '--raw']);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: --raw prints the server's answer untouched, and 'clinic customers create' with --from prints none: nothing was done\n",
    });
    expect(cli.seen).toEqual([]);
  });
});
