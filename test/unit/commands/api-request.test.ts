// `clinic api` in-process against a FakeTransport: what -F sends, which methods take a body, --fields and the page
// parameters of --paginate, each refusal made before any request.
import { describe, expect, it } from 'vitest';
import { useInProcess } from '../../helpers/in-process.js';
import { queueReplies } from '../../helpers/mock-api.js';

const cli = useInProcess();

const page = (data: unknown[], current: number, last: number) => ({
  success: true,
  data,
  meta: { current_page: current, last_page: last, total: 9, per_page: 2 },
});

describe('clinic api -F numbers', () => {
  it('sends query values exactly as typed', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/x\?/, [{ status: 200, body: { ok: true } }]);
    const fields = ['id=9007199254740993', 'big=12345678901234567890123', 'amt=1.10', 'z=-0', 'n=5'];
    const { code } = await cli.run(['api', '-X', 'GET', '/v1/x', ...fields.flatMap((f) => ['-F', f])]);
    expect(code).toBe(0);
    expect(cli.seen[0]?.path).toBe(
      '/api/v1/x?id=9007199254740993&big=12345678901234567890123&amt=1.10&z=-0&n=5',
    );
  });

  it('in a JSON body, a number JSON would change stays a string; one whose value it keeps is a number', async () => {
    queueReplies(cli.transport, cli.seen, 'POST', '/api/v1/x', [{ status: 200, body: { ok: true } }]);
    const fields = ['id=9007199254740993', 'amt=1.10', 'z=-0', 'n=5', 'f=-2.5', 'max=9007199254740991'];
    const { code } = await cli.run(['api', '/v1/x', ...fields.flatMap((f) => ['-F', f])]);
    expect(code).toBe(0);
    expect(cli.seen[0]?.body).toBe(
      '{"id":"9007199254740993","amt":1.1,"z":0,"n":5,"f":-2.5,"max":9007199254740991}',
    );
  });
});

describe('clinic api methods and bodies', () => {
  it('-X DELETE sends -F fields as a JSON body, as the help says', async () => {
    queueReplies(cli.transport, cli.seen, 'DELETE', '/api/v1/x/3', [{ status: 204 }]);
    const { code } = await cli.run(['api', '-X', 'DELETE', '/v1/x/3', '-F', 'a=1', '-f', 'why=dup']);
    expect(code).toBe(0);
    expect(cli.seen[0]?.body).toBe('{"a":1,"why":"dup"}');
  });

  it('-X HEAD -F sends query parameters', async () => {
    queueReplies(cli.transport, cli.seen, 'HEAD', '/api/v1/x?a=1', [{ status: 200 }]);
    expect((await cli.run(['api', '-X', 'HEAD', '/v1/x', '-F', 'a=1'])).code).toBe(0);
    expect(cli.seen[0]?.body ?? '').toBe('');
  });

  it.each(['GET', 'HEAD', 'head'])('-X %s --input is refused before sending (exit 2)', async (method) => {
    const result = await cli.run(['api', '-X', method, '/v1/x', '--input', '-'], { stdin: '{"a":1}' });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: --input needs a method with a body (-X POST…), not ${method.toUpperCase()}\n`,
    });
    expect(cli.transport.requests).toEqual([]);
  });
});

describe('clinic api --fields', () => {
  it.each([
    [['api', '/v1/customers', '--paginate', '-o', 'ndjson']],
    [['api', '/v1/customers', '--paginate']],
    [['api', '/v1/account']],
    [['api', '/v1/account', '--dry-run']],
    [['api', '-X', 'POST', '/v1/customers', '-f', 'first_name=Ada', '--dry-run']],
  ])('%j --fields id,email is refused before sending (exit 2)', async (argv) => {
    const result = await cli.run([...argv, '--fields', 'id,email']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^error: --fields does not apply to api, which prints the server's body: pick with --jq\n/,
    );
    expect(cli.transport.requests).toEqual([]);
  });
});

describe('clinic chat tail --fields', () => {
  it('is refused before anything is read or connected (tail writes whole events)', async () => {
    const result = await cli.run(['chat', 'tail', '--fields', 'id']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --fields does not apply: this command writes whole records\n',
    });
    expect(cli.transport.requests).toEqual([]);
  });
});

describe('clinic api --paginate page parameters', () => {
  it.each([
    ['/v1/customers?per_page=abc', "per_page must be one whole number of 1 or more (got 'abc')"],
    ['/v1/customers?per_page=0', "per_page must be one whole number of 1 or more (got '0')"],
    ['/v1/customers?per_page=2.5', "per_page must be one whole number of 1 or more (got '2.5')"],
    ['/v1/customers?per_page=', "per_page must be one whole number of 1 or more (got '')"],
    ['/v1/customers?page=-1', "page must be one whole number of 1 or more (got '-1')"],
    ['/v1/customers?page=1&page=3', "page must be one whole number of 1 or more (got '1', '3')"],
  ])('%s is refused before sending (exit 2)', async (path, message) => {
    const result = await cli.run(['api', path, '--paginate']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: `error: --paginate: ${message}\n` });
    expect(cli.transport.requests).toEqual([]);
  });

  it('-F per_page=abc is refused too', async () => {
    const result = await cli.run(['api', '/v1/customers', '--paginate', '-F', 'per_page=abc']);
    expect(result.code).toBe(2);
    expect(cli.transport.requests).toEqual([]);
  });

  it('starts at the page given, keeping its per_page and the rest of the query', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/customers\?/, [
      { status: 200, body: page([{ id: 3 }, { id: 4 }], 2, 3) },
      { status: 200, body: page([{ id: 5 }], 3, 3) },
    ]);
    const result = await cli.run(['api', '/v1/customers?page=2&per_page=2&status=active', '--paginate']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual([{ id: 3 }, { id: 4 }, { id: 5 }]);
    expect(cli.seen.map((r) => r.path)).toEqual([
      '/api/v1/customers?status=active&page=2&per_page=2',
      '/api/v1/customers?status=active&page=3&per_page=2',
    ]);
  });
});
