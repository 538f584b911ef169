// The exact bytes of the verbs that write through the shared writers (present.ts), in every format: pinned before
// they were moved onto the one list writer and record writer, so the move shows no difference.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useInProcess } from '../../helpers/in-process.js';
import { queueReplies } from '../../helpers/mock-api.js';

const cli = useInProcess();

const account = {
  id: 1,
  name: 'Ada',
  email: 'ada@x.test',
  tenants: [
    { id: 7, slug: 'north', name: 'North, "main"', is_active: true },
    { id: 8, slug: 'south', name: '=SUM(A1)', is_active: false },
  ],
};
const replyAccount = () =>
  queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/account', [
    { status: 200, body: { success: true, data: account } },
  ]);

/** stdout, stderr and the exit code of one run, for a snapshot. */
const outcome = async (argv: string[], options: Parameters<typeof cli.run>[1] = {}) => {
  const { code, stdout, stderr } = await cli.run(argv, options);
  return `exit ${code}\n--- stdout\n${stdout}--- stderr\n${stderr}`
    .replaceAll(cli.dir, '<dir>')
    .replace(/clinic\/\d+\.\d+\.\d+\S*/g, 'clinic/<version>');
};

describe('tenants list', () => {
  for (const format of ['json', 'ndjson', 'csv', 'table']) {
    it(`-o ${format}`, async () => {
      replyAccount();
      expect(await outcome(['tenants', 'list', '-o', format])).toMatchSnapshot();
    });
  }

  it('a table on a terminal, --fields', async () => {
    replyAccount();
    expect(await outcome(['tenants', 'list', '--fields', 'id,current'], { tty: true })).toMatchSnapshot();
  });
});

describe('config list and profiles', () => {
  const configured = async () => {
    const dir = cli.env.CLINIC_CONFIG_DIR as string;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const config = {
      current_profile: 'work',
      profiles: { work: { base_url: 'https://w.test', tenant: '3' } },
    };
    await writeFile(join(dir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
  };
  for (const format of ['json', 'ndjson', 'csv', 'table']) {
    it(`config list -o ${format}`, async () => {
      await configured();
      expect(await outcome(['config', 'list', '-o', format])).toMatchSnapshot();
    });
    it(`config profiles -o ${format}`, async () => {
      await configured();
      expect(await outcome(['config', 'profiles', '-o', format])).toMatchSnapshot();
    });
  }
});

describe('erasure watch', () => {
  const erasure = (status: string) => ({ success: true, data: { id: 12, status, state_allows: {} } });
  for (const format of ['json', 'ndjson', 'csv', 'table']) {
    it(`-o ${format}, and after a failure`, async () => {
      queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/data-erasure-requests/12', [
        { status: 200, body: erasure('verified') },
        { status: 200, body: erasure('completed') },
        { status: 200, body: erasure('processing') },
        { status: 404, body: { message: 'gone' } },
      ]);
      const watch = ['erasure', 'watch', '12', '--interval', '1', '--timeout', '5', '-o', format];
      expect(await outcome(watch)).toMatchSnapshot();
      expect(await outcome(watch)).toMatchSnapshot();
    });
  }
});

describe('api --paginate', () => {
  const page = { success: true, data: [{ id: 1, a: { b: 2 } }], meta: { current_page: 1, last_page: 1 } };
  for (const flags of [['-o', 'table'], ['-o', 'ndjson', '--fields', 'id'], ['-o', 'csv'], []]) {
    it(`${flags.join(' ') || 'a terminal'}: the records as served in JSON or NDJSON; another -o refused`, async () => {
      // -o table, -o csv and --fields (api prints what the server sent) are refused before any request.
      if (!flags.includes('table') && !flags.includes('csv') && !flags.includes('--fields'))
        queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/things/, [{ status: 200, body: page }]);
      const argv = ['api', '/v1/things', '--paginate', ...flags];
      expect(await outcome(argv, { tty: flags.length === 0 })).toMatchSnapshot();
    });
  }

  it('a body as served, pretty on a terminal', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/things/1', [
      { status: 200, body: { id: 1, a: [1] } },
    ]);
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/things/1', [
      { status: 200, body: { id: 1, a: [1] } },
    ]);
    expect(await outcome(['api', '/v1/things/1'], { tty: true })).toMatchSnapshot();
    expect(await outcome(['api', '/v1/things/1'])).toMatchSnapshot();
  });
});

describe('single records', () => {
  const customer = { id: 5, first_name: 'Ada', tags: ['a', 'b'], record_state: { is_read_only: true } };
  for (const format of ['json', 'ndjson', 'csv', 'table']) {
    it(`customers get -o ${format}`, async () => {
      queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/customers/5', [
        { status: 200, body: { success: true, data: customer } },
      ]);
      expect(await outcome(['customers', 'get', '5', '-o', format])).toMatchSnapshot();
    });

    it(`auth status -o ${format}`, async () => {
      replyAccount();
      expect(await outcome(['auth', 'status', '-o', format])).toMatchSnapshot();
    });

    it(`a dry run -o ${format}`, async () => {
      const argv = ['customers', 'create', '--set', 'first_name=Ada', '--dry-run', '-o', format];
      expect(await outcome(argv)).toMatchSnapshot();
    });
  }
});

describe('errors as JSON: when the user chose JSON data', () => {
  const cases: [string, string[], Record<string, string>][] = [
    ['a command line that does not parse, -o json', ['customers', 'get', '-o', 'json'], {}],
    ['a command line that does not parse, --output=ndjson', ['customers', 'nope', '--output=ndjson'], {}],
    ['a command line that does not parse, CLINIC_OUTPUT', ['customers', 'get'], { CLINIC_OUTPUT: 'json' }],
    ['a bad format as typed', ['customers', 'get', '-oxml'], { CLINIC_OUTPUT: 'json' }],
    ['a usage error after parsing, --json', ['customers', 'get', 'x', '--json'], {}],
    ['CLINIC_OUTPUT=ndjson', ['customers', 'get', 'x'], { CLINIC_OUTPUT: 'ndjson' }],
    ['the default (json into a pipe) is no choice', ['customers', 'get', 'x'], {}],
  ];
  for (const [name, argv, env] of cases) {
    it(name, async () => {
      expect(await outcome(argv, { env })).toMatchSnapshot();
    });
  }

  it('the profile chose ndjson', async () => {
    const dir = cli.env.CLINIC_CONFIG_DIR as string;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const config = { profiles: { default: { output: 'ndjson' } } };
    await writeFile(join(dir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
    expect(await outcome(['customers', 'get', 'x'])).toMatchSnapshot();
  });

  it('a broken config file: the flag still decides', async () => {
    const dir = cli.env.CLINIC_CONFIG_DIR as string;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(join(dir, 'config.json'), '{"profiles": [', { mode: 0o600 });
    expect(await outcome(['customers', 'get', '5', '-o', 'json'])).toMatchSnapshot();
    expect(await outcome(['customers', 'get', '5'])).toMatchSnapshot();
  });
});
