// Bad input: one clear line on stderr, exit 2, and not a single request sent.
import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lines, runCli, startWorld, type TestWorld } from '../../helpers/cli.js';

let world: TestWorld;
/** Files for the cases below, in the test's config dir. */
const file = (name: string) => join(world.configDir, '..', name);
beforeAll(async () => {
  world = await startWorld();
  await writeFile(file('empty.ndjson'), '');
  await writeFile(file('bad.ndjson'), '{"first_name":"A","last_name":"B"}\n{"first_name":\n');
  await writeFile(file('ragged.csv'), 'first_name,last_name\nA,B\nC\n');
  await writeFile(file('notes.csv'), 'lead_id,content\n33,hello\n33,\n');
  await writeFile(file('requests.csv'), 'customer_id,request_reason\n1,asked\n');
  await writeFile(file('ok.csv'), 'first_name,last_name\nA,B\n');
  // Nested 200,000 deep: JSON.parse takes it, sending or checking it would overflow the stack.
  const deep = `{"first_name":"A","x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
  await writeFile(file('deep.json'), deep);
  await writeFile(file('deep.ndjson'), `{"first_name":"A","last_name":"B"}\n${deep}\n`);
  await writeFile(file('exists.pdf'), 'old');
  await mkdir(file('folder'), { recursive: true });
  await writeFile(file('big.ogg'), '');
  await truncate(file('big.ogg'), 51_200 * 1024 + 1);
});
afterAll(() => world.close());

const cases: [string, string[], RegExp][] = [
  ['a non-numeric id', ['customers', 'get', 'abc'], /customer ID must be a positive whole number/],
  ['a zero id', ['customers', 'get', '0'], /positive whole number/],
  ['per-page above 100', ['customers', 'list', '--per-page', '101'], /--per-page must be between 1 and 100/],
  ['per-page 0', ['customers', 'list', '--per-page', '0'], /--per-page must be between 1 and 100/],
  ['a page of 0', ['customers', 'list', '--page', '0'], /--page must be at least 1/],
  ['an unknown format', ['customers', 'list', '-o', 'yaml'], /unknown output format 'yaml'/],
  ['--json against -o csv', ['customers', 'list', '--json', '-o', 'csv'], /disagree/],
  ['malformed --data', ['customers', 'create', '--data', '{"first_name":'], /--data is not valid JSON/],
  ['--data that is not an object', ['customers', 'create', '--data', '[1]'], /must be a JSON object/],
  ['a missing --data file', ['customers', 'create', '--data', '@/nonexistent/x.json'], /cannot read/],
  ['a bad --set', ['customers', 'create', '--set', 'novalue'], /--set expects key=value/],
  ['a bad --filter', ['customers', 'list', '--filter', 'oops'], /--filter expects key=value/],
  ['paging given as a filter', ['customers', 'list', '--filter', 'per_page=5'], /use --per-page/],
  ['a bad --fields path', ['customers', 'list', '--fields', 'a..b'], /is not a field path/],
  [
    'a bad --max-retries',
    ['customers', 'list', '--max-retries', 'many'],
    /--max-retries must be a whole number/,
  ],
  ['an unknown option', ['customers', 'list', '--colour'], /unknown option/],
  [
    'an extra argument',
    ['customers', 'get', '1', '2'],
    /^error: too many arguments for 'get': it takes 1, got 2$/,
  ],
  ['an option without its value', ['customers', 'list', '--per-page'], /^error: --per-page needs a value$/],
  ['a short option without its value', ['customers', 'list', '-o'], /^error: --output needs a value$/],
  ['an unknown command', ['customer', 'list'], /unknown command/],
  ['a missing argument', ['customers', 'get'], /missing required argument/],
  [
    'a tenant id of 0',
    ['customers', 'list', '--tenant', '0'],
    /--tenant: tenant must be a positive whole number/,
  ],
  ['an empty tenant', ['customers', 'list', '--tenant', ''], /--tenant takes a tenant id or slug, got ''/],
  [
    '--all with --page',
    ['customers', 'list', '--all', '--page', '2'],
    /--all reads every page from the first/,
  ],
  ['an absolute api URL', ['api', 'https://evil.example/v1/account'], /PATH must be relative/],
  ['an unknown config key', ['config', 'set', 'colour', 'blue'], /unknown config key 'colour'/],
  ['a bad base_url', ['config', 'set', 'base_url', 'ftp://x'], /base_url must be an http\(s\) URL/],
  ['an unknown erasure status', ['erasure', 'list', '--status', 'done'], /--status: unknown value 'done'/],
  [
    'an impossible date',
    ['erasure', 'list', '--created-from', '2026-02-30'],
    /--created-from must be an ISO 8601/,
  ],
  ['a date in words', ['erasure', 'list', '--created-to', 'yesterday'], /--created-to must be an ISO 8601/],
  [
    'dates the wrong way round',
    ['erasure', 'list', '--created-from', '2026-03-01', '--created-to', '2026-01-01'],
    /is after --created-to/,
  ],
  ['an unknown sort field', ['erasure', 'list', '--sort-by', 'name'], /--sort-by: unknown value 'name'/],
  ['an unknown sort order', ['erasure', 'list', '--sort-order', 'up'], /--sort-order: unknown value 'up'/],
  ['an unknown event kind', ['chat', 'tail', '--events', 'created,typed'], /--events: unknown value 'typed'/],
  ['--since without a conversation', ['chat', 'tail', '--since', '5'], /--since needs --conversation/],
  ['a non-numeric --after', ['conversations', 'messages', '1', '--after', 'x'], /--after must be a positive/],
  ['an id beyond 2^53', ['users', 'get', '9007199254740993'], /must be a positive whole number/],
  ['a limit of 0', ['customers', 'list', '--limit', '0'], /--limit must be at least 1/],
  ['a negative page', ['customers', 'list', '--page', '-1'], /--page must be a whole number/],
  ['an empty bulk file', ['customers', 'create', '--from', 'FILE:empty.ndjson'], /empty.ndjson: no records/],
  [
    'a malformed NDJSON line',
    ['customers', 'create', '--from', 'FILE:bad.ndjson'],
    /bad.ndjson:2: not valid JSON/,
  ],
  ['a ragged CSV row', ['customers', 'create', '--from', 'FILE:ragged.csv'], /ragged.csv:3:/],
  [
    '--data nested too deep',
    ['customers', 'create', '--data', '@FILE:deep.json'],
    /deep.json nests arrays and objects more than 512 levels deep$/,
  ],
  [
    '--data nested too deep, under --dry-run',
    ['--dry-run', 'customers', 'create', '--data', '@FILE:deep.json'],
    /deep.json nests arrays and objects more than 512 levels deep$/,
  ],
  [
    'a bulk record nested too deep',
    ['customers', 'create', '--from', 'FILE:deep.ndjson'],
    /deep.ndjson:2: the record nests arrays and objects more than 512 levels deep$/,
  ],
  [
    'api --input nested too deep',
    ['api', '-X', 'POST', '/v1/customers', '--input', 'FILE:deep.json'],
    /--input .*deep.json nests arrays and objects more than 512 levels deep$/,
  ],
  [
    '--set key:= nested too deep',
    ['customers', 'create', '--set', `x:=${'['.repeat(600)}${']'.repeat(600)}`],
    /--set x:= nests arrays and objects more than 512 levels deep$/,
  ],
  [
    'dotted --set keys nested too deep',
    ['customers', 'create', '--set', `${'a.'.repeat(600)}b=1`],
    /the body nests arrays and objects more than 512 levels deep$/,
  ],
  [
    'a directory as the bulk file',
    ['customers', 'create', '--from', 'FILE:folder', '--format', 'csv'],
    /is a directory/,
  ],
  ['a missing bulk file', ['customers', 'create', '--from', 'FILE:missing.csv'], /no such file/],
  ['stdin without --format', ['customers', 'create', '--from', '-', '--journal', 'FILE:j'], /needs --format/],
  ['stdin without a journal', ['customers', 'create', '--from', '-', '--format', 'csv'], /needs --journal/],
  [
    '--from and --data together',
    ['customers', 'create', '--from', 'FILE:ok.csv', '--data', '{}'],
    /disagree/,
  ],
  [
    '--resume without --from',
    ['customers', 'create', '--resume', '--set', 'a=b'],
    /--resume goes with --from/,
  ],
  [
    'a note without content',
    ['leads', 'notes', 'add', '--from', 'FILE:notes.csv'],
    /notes.csv:3: missing required/,
  ],
  ['bulk erasure without --yes', ['erasure', 'create', '--from', 'FILE:requests.csv'], /pass --yes/],
  ['an oversize voice file', ['conversations', 'send-voice', '1', 'FILE:big.ogg'], /over the upload limit/],
  ['a directory as the voice file', ['conversations', 'send-voice', '1', 'FILE:folder'], /is a directory/],
  ['a missing voice file', ['conversations', 'send-voice', '1', 'FILE:missing.ogg'], /no such file/],
  ['an existing PDF without --force', ['ai-reports', 'pdf', '1', '-O', 'FILE:exists.pdf'], /pass --force/],
  ['a PDF into a missing folder', ['ai-reports', 'pdf', '1', '-O', '/nonexistent/dir/x.pdf'], /no directory/],
  ['--active and --inactive', ['form-templates', 'update', '1', '--active', '--inactive'], /disagree/],
  ['nothing to update', ['form-templates', 'update', '1'], /nothing to change/],
  ['cancel without a reason', ['erasure', 'cancel', '3', '--yes'], /--reason TEXT is required/],
  ['erasure without a customer', ['erasure', 'create', '--yes'], /--customer ID is required/],
  ['a retry without --yes or a terminal', ['erasure', 'retry', '7'], /pass --yes/],
  ['a stock deduction without --yes', ['sales', 'stock-deduct', '1'], /pass --yes/],
  [
    'a flag given twice',
    ['erasure', 'create', '--customer', '5', '--customer', '6', '--yes'],
    /given more than once/,
  ],
  ['a bad profile name', ['--profile', 'bad name!', 'account'], /profile/],
  ['a request timeout of 0', ['--request-timeout', '0', 'account'], /--request-timeout must be between 1/],
  ['a clear-text base URL', ['--base-url', 'http://api.example.com/api', 'account'], /must use https/],
];

describe('refused before any request, exit 2', () => {
  for (const [what, args, message] of cases) {
    it(`${what}`, async () => {
      world.newRequests();
      const argv = args.map((arg) =>
        arg.startsWith('FILE:')
          ? file(arg.slice(5))
          : arg.startsWith('@FILE:')
            ? `@${file(arg.slice(6))}`
            : arg,
      );
      const { code, stdout, stderr } = await world.clinic(argv);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(lines(stderr)).toHaveLength(1);
      expect(lines(stderr)[0]).toMatch(message);
      expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(world.newRequests()).toEqual([]);
    });
  }

  it('no tenant for a tenant-scoped command', async () => {
    world.newRequests();
    await world.clinic(['config', 'unset', 'tenant']);
    try {
      const { code, stderr } = await world.clinic(['customers', 'list']);
      expect(code).toBe(2);
      // The profile was chosen with --profile (as every command of this world is): the advice names it.
      expect(lines(stderr)).toEqual([
        "error: /v1/customers needs a tenant: pass --tenant ID, set CLINIC_TENANT, or run 'clinic --profile sandbox tenants use ID'",
      ]);
      expect(world.newRequests()).toEqual([]);
    } finally {
      await world.clinic(['config', 'set', 'tenant', '1']);
    }
  });

  it('no API address configured', async () => {
    const { code, stderr } = await runCli(`${world.configDir}-empty`, ['account']);
    expect(code).toBe(2);
    expect(lines(stderr)).toHaveLength(1);
    expect(stderr).toContain('clinic sandbox start');
  });

  it('a profile named that does not exist (a typo) is said so, with the profiles there are', async () => {
    world.newRequests();
    const { code, stderr } = await world.clinic(['--profile', 'sandbx', 'account']);
    expect(code).toBe(2);
    expect(lines(stderr)).toEqual([
      "error: there is no profile 'sandbx' (profiles: sandbox): make it with 'clinic --profile sandbx config set base_url URL'",
    ]);
    expect(world.newRequests()).toEqual([]);
  });

  it('the noun alone shows help on stderr and exits 2', async () => {
    const { code, stderr } = await world.clinic(['customers']);
    expect(code).toBe(2);
    expect(stderr).toContain('Usage: clinic customers');
  });
});

describe('stdin closed or empty', () => {
  it.each([
    [['customers', 'create', '--data', '-'], /stdin is not valid JSON/],
    [['login', '--with-token', '--insecure-storage'], /token/],
  ])('%j: exit 2, one line, nothing sent', async (args, message) => {
    world.newRequests();
    const { code, stderr } = await world.clinic(args, { input: '' });
    expect(code).toBe(2);
    expect(lines(stderr)).toHaveLength(1);
    expect(stderr).toMatch(message);
    expect(world.newRequests()).toEqual([]);
  });
});

describe('not logged in', () => {
  it('exits 3 and says how to sign in, without sending a request', async () => {
    const fresh = await startWorld({}, false);
    try {
      const { code, stderr } = await fresh.clinic(['customers', 'list']);
      expect(code).toBe(3);
      expect(lines(stderr)[0]).toBe('error: not logged in (profile sandbox)');
      expect(stderr).toContain('CLINIC_TOKEN');
      expect(fresh.newRequests()).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
