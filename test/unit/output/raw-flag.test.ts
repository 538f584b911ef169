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
