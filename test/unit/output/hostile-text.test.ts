// Server text never reaches a terminal with its control characters: every place a person reads it.
import { expect, it } from 'vitest';
import { useInProcess } from '../../helpers/in-process.js';
import { queueReplies } from '../../helpers/mock-api.js';

const EVIL = '\u001b]0;pwned\u0007\u001b[31mRED\u001b[2J\u009b2J\u202eevil\nerror: forged';
// eslint-disable-next-line no-control-regex -- the point of the test
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const cli = useInProcess();

const person = {
  id: 1,
  first_name: EVIL,
  last_name: EVIL,
  email: EVIL,
  is_masked: true,
  name: EVIL,
  tenants: [],
};
const page = { success: true, data: [person], meta: { current_page: 1, last_page: 1, total: EVIL } };

it.each([
  [
    'customers get -o table',
    ['customers', 'get', '1'],
    '/api/v1/customers/1',
    { success: true, data: person },
  ],
  ['customers list (table)', ['customers', 'list', '--all'], /^\/api\/v1\/customers\?/, page],
  ['account (table)', ['account'], '/api/v1/account', { success: true, data: person }],
  ['api: a non-JSON 200 body', ['api', '/v1/account'], '/api/v1/account', EVIL],
  ['--raw', ['customers', 'get', '1', '--raw'], '/api/v1/customers/1', EVIL],
  ['api: an error body', ['api', '/v1/account'], '/api/v1/account', { status: 418, text: EVIL }],
])('%s: nothing but printable text on a terminal', async (_name, argv, path, body) => {
  const reply =
    typeof body === 'object' && body !== null && 'status' in body
      ? { status: (body as { status: number }).status, body: (body as { text: string }).text }
      : { status: 200, body };
  queueReplies(cli.transport, cli.seen, 'GET', path, [reply]);
  const result = await cli.run(argv, { tty: true });
  expect(result.stdout).not.toMatch(CONTROL);
  // stderr may carry the spinner's own cursor codes, never the server's.
  // eslint-disable-next-line no-control-regex -- the point of the test
  expect(result.stderr).not.toMatch(/\u001b\]|\u009b|\u202e|\u001b\[31m|\u001b\[2J|\u0007/);
  expect(result.stderr.split('\n').filter((line) => line.startsWith('error: forged'))).toEqual([]);
});

it('api: a JSON answer on a terminal is the same JSON, with what a terminal acts on escaped', async () => {
  const body = { success: true, data: { name: `a\u2028b\u2029c\u009b2J\u202e${EVIL}` } };
  queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/account', [{ status: 200, body }]);
  const result = await cli.run(['api', '/v1/account'], { tty: true });
  expect(result.stdout).not.toMatch(CONTROL);
  expect(result.stdout).not.toMatch(/[\u2028\u2029]/);
  expect(JSON.parse(result.stdout)).toEqual(body);
});

it('JSON output stays exact data, escapes and all', async () => {
  queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/customers/1', [
    { status: 200, body: { success: true, data: person } },
  ]);
  const result = await cli.run(['customers', 'get', '1', '-o', 'json']);
  expect(JSON.parse(result.stdout).first_name).toBe(EVIL);
});

it('--raw into a pipe is the body exactly', async () => {
  queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/customers/1', [{ status: 200, body: EVIL }]);
  const result = await cli.run(['customers', 'get', '1', '--raw']);
  expect(result.stdout).toBe(`${EVIL}\n`);
});

it('login --with-token: the name in "logged in as" is made safe', async () => {
  queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/account', [
    { status: 200, body: { success: true, data: person } },
  ]);
  const result = await cli.run(['login', '--with-token', '--insecure-storage'], {
    env: { CLINIC_TOKEN: '' },
    stdin: 'a-personal-token',
  });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toContain('logged in as');
  expect(result.stderr).not.toMatch(CONTROL);
});

it('a one-record table never carries control characters, in its NOTE row too', async () => {
  const evil = '\u001b]0;PWNED\u0007\u001b[31mRED\u009b2J\u202eevil\tTAB';
  queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/users/1', [
    {
      status: 200,
      body: {
        success: true,
        data: { id: 1, name: evil, record_state: { is_read_only: true, reason_code: evil } },
      },
    },
  ]);
  const { code, stdout } = await cli.run(['users', 'get', '1'], { tty: true });
  expect(code).toBe(0);
  expect(stdout).toContain('NOTE');
  // eslint-disable-next-line no-control-regex -- the point of the test
  expect(stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e\t]/);
});

it('--debug: a line break in a server message cannot forge a line of its own', async () => {
  queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/users/1', [
    { status: 500, body: { message: 'boom\nerror: forged line' } },
  ]);
  const result = await cli.run(['users', 'get', '1', '--debug', '--max-retries', '0']);
  expect(result.stderr.split('\n').filter((line) => line.startsWith('error:'))).toHaveLength(1);
});
