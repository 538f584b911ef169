// --jq EXPR: what -o json would print, filtered through jq; strings raw; the program compiled before any request;
// refused where it has nothing to filter.
import { describe, expect, it } from 'vitest';
import { useInProcess } from '../../helpers/in-process.js';
import { queueReplies, type Reply } from '../../helpers/mock-api.js';

const cli = useInProcess();

const CUSTOMERS = [
  { id: 1, first_name: ' Ada ', email: 'ada@x.test', record_state: { is_read_only: false } },
  { id: 2, first_name: 'Grace', email: null, record_state: { is_read_only: true } },
];

const page = (data: unknown[], current = 1, last = 1): Reply => ({
  status: 200,
  body: { data, meta: { current_page: current, last_page: last, per_page: 2, total: 4 }, links: {} },
});

const replyCustomers = (...replies: Reply[]) =>
  queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/customers\?/, replies);

describe('--jq on a list', () => {
  it('runs over the JSON array -o json would print; strings print raw, blanks kept', async () => {
    replyCustomers(page(CUSTOMERS));
    const run = await cli.run(['customers', 'list', '--jq', '.[].first_name']);
    expect(run).toEqual({ code: 0, stdout: ' Ada \nGrace\n', stderr: '' });
  });

  it('prints other values as jq does, after --fields has picked them', async () => {
    replyCustomers(page(CUSTOMERS));
    const run = await cli.run([
      'customers',
      'list',
      '--fields',
      'id,email',
      '--jq',
      '.[0], length, .[1].email',
    ]);
    expect(run.stdout).toBe('{\n  "id": 1,\n  "email": "ada@x.test"\n}\n2\nnull\n');
  });

  it('on a terminal, and with the profile asking for tables: still JSON filtered, control characters removed', async () => {
    replyCustomers(page([{ id: 1, first_name: 'red\u001b[31m text' }]));
    const run = await cli.run(['customers', 'list', '--jq', '.[0].first_name'], {
      tty: true,
      env: { CLINIC_OUTPUT: 'table' },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('red?[31m text\n');
  });

  it('sees every page of --all (the whole list is read first)', async () => {
    replyCustomers(page(CUSTOMERS, 1, 2), page([{ id: 3 }, { id: 4 }], 2, 2));
    const run = await cli.run(['customers', 'list', '--all', '--per-page', '2', '--jq', 'map(.id) | add']);
    expect(run).toMatchObject({ code: 0, stdout: '10\n' });
  });

  it('a failed export still filters what was written (a closed list), then reports the failure', async () => {
    replyCustomers(page(CUSTOMERS, 1, 2), { status: 500, body: { message: 'down' } });
    const args = ['customers', 'list', '--all', '--per-page', '2', '--max-retries', '0', '--jq', 'length'];
    const run = await cli.run(args);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('2\n');
    expect(run.stderr).toMatch(/^error: .*500/);
  });
});

describe('--jq on a record and on api', () => {
  it('a record: its object, as -o json would print it', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/customers/1', [
      { status: 200, body: { success: true, data: CUSTOMERS[0] } },
    ]);
    const run = await cli.run(['customers', 'get', '1', '--jq', '.record_state.is_read_only, .email']);
    expect(run).toEqual({ code: 0, stdout: 'false\nada@x.test\n', stderr: '' });
  });

  it('api: the body as served', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/things', [
      { status: 200, body: { success: true, data: { tags: ['a', 'b'] } } },
    ]);
    const run = await cli.run(['api', '/v1/things', '--jq', '.data.tags | join(",")']);
    expect(run).toEqual({ code: 0, stdout: 'a,b\n', stderr: '' });
  });

  it("jq's debug messages go to stderr", async () => {
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/things', [{ status: 200, body: { n: 1 } }]);
    const run = await cli.run(['api', '/v1/things', '--jq', '.n | debug']);
    expect(run).toEqual({ code: 0, stdout: '1\n', stderr: '["DEBUG:",1]\n' });
  });

  it('an error of the program on the data: what it printed before, then one line, exit 1', async () => {
    replyCustomers(page(CUSTOMERS));
    const run = await cli.run(['customers', 'list', '--jq', '.[] | .email | ascii_downcase']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('ada@x.test\n');
    expect(run.stderr).toBe('error: --jq: explode input must be a string\n');
  });
});

describe('--jq refused before any request', () => {
  it.each([
    [['customers', 'list', '--jq', '.[] |||'], /^error: --jq: syntax error/],
    [['customers', 'list', '--jq', '.[] | $nope'], /^error: --jq: \$nope is not defined/],
    [
      ['customers', 'list', '-o', 'csv', '--jq', '.'],
      /^error: --jq filters JSON: it does not go with --output csv/,
    ],
    [['auth', 'token', '--jq', '.'], /^error: --jq: auth token prints a token, not JSON/],
    [['chat', 'tail', '--jq', '.'], /^error: --jq: chat tail prints events as they happen/],
  ])('clinic %j: exit 2, one line', async (argv, line) => {
    const run = await cli.run(argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(line);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(cli.seen).toEqual([]);
  });
});
