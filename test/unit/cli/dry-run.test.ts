// --dry-run on every declared command, found by walking the declarations: a command that honours it sends no write,
// a read-only one runs as it does without it, and every other one (a command that writes with no dry run of its own,
// and any new command that declares nothing) refuses it with exit 2 and one line, before anything is done.
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeClock } from '../../helpers/fake-clock.js';
import type { FakeTransport } from '../../helpers/fake-transport.js';
import { runInProcess } from '../../helpers/in-process.js';
import { BASE_URL, fakeReply, newFakeTransport } from '../../helpers/mock-api.js';
import { type Declared, declaredCommands } from '../../helpers/declared-commands.js';
import { tempDir } from '../../helpers/temp-dir.js';

const declared = await declaredCommands();
const honouring = declared.filter(({ def }) => def.dryRun === 'honoured');
const readOnly = declared.filter(({ def }) => def.dryRun === 'read-only');
const refusing = declared.filter(({ def }) => def.dryRun === undefined);

/** An example's words after `clinic`, as a shell would split them, up to a comment, a pipe or a redirection. */
function words(example: string): string[] {
  const all = [...example.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
  const end = all.findIndex((word) => ['#', '|', '>', '>>', '&&'].includes(word));
  return all.slice(1, end < 0 ? undefined : end);
}

let dir: string;
let env: Record<string, string>;
let transport: FakeTransport;
beforeEach(async () => {
  dir = await tempDir('clinic-dry-run-');
  env = {
    CLINIC_CONFIG_DIR: join(dir, 'config'),
    CLINIC_BASE_URL: BASE_URL,
    CLINIC_TOKEN: 'tok',
    CLINIC_TENANT: '7',
  };
  await writeFile(join(dir, 'reply.ogg'), 'OggS');
  transport = newFakeTransport();
  // Any read is answered with a record in a final state that allows every action, in a page of one. Writes have
  // no route: one sent fails the command (and is in transport.requests all the same).
  transport.on(
    'GET',
    () => true,
    () => {
      const allows = { resend: true, cancel: true, retry: true, certificate: true };
      const record = { id: 12, status: 'completed', state_allows: allows, tenants: [] };
      const meta = { current_page: 1, last_page: 1, per_page: 15, total: 1 };
      return fakeReply({ status: 200, body: { success: true, data: record, meta } });
    },
    { persist: true },
  );
});

/**
 * The command's first example that starts with clinic and acts on one record, not a file's (else the command alone),
 * its files in this test's folder.
 */
function exampleOf({ path, def }: Declared): string[] {
  const argv = def.examples
    .filter((example) => example.startsWith('clinic '))
    .map(words)
    .find((candidate) => !candidate.includes('--from'));
  return (argv ?? path).map((word) => (/\.(ogg|pdf)$/.test(word) ? join(dir, word) : word));
}

/** For describe.each: each command by its name. */
const byName = (list: Declared[]) =>
  list.map((command): [string, Declared] => [command.path.join(' '), command]);

const run = (argv: string[]) =>
  runInProcess(argv, { env, transport, clock: fakeClock(), deps: { signal: AbortSignal.timeout(10_000) } });

const writes = () => transport.requests.filter(({ method }) => method !== 'GET');

describe('--dry-run', () => {
  it('is declared by the commands that write and show their requests, and is refused by those that cannot', () => {
    const names = (list: Declared[]) => list.map(({ path }) => path.join(' '));
    for (const honours of ['customers create', 'leads notes add', 'erasure create', 'erasure cancel', 'api'])
      expect(names(honouring)).toContain(honours);
    for (const refuses of ['login', 'logout', 'auth refresh', 'config set', 'config unset', 'tenants use'])
      expect(names(refusing)).toContain(refuses);
    expect(names(refusing)).toEqual(
      expect.arrayContaining([
        'config use-profile',
        'sandbox start',
        'ai-reports pdf',
        'erasure certificate',
      ]),
    );
  });

  describe.each(byName(refusing))('%s: no dry run of its own', (_name, command) => {
    it('is refused with exit 2 and one line, before anything is done', async () => {
      const argv = exampleOf(command);
      const result = await run([...argv, '--dry-run']);
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: --dry-run is not supported by 'clinic ${command.path.join(' ')}': nothing was done\n`,
      });
      expect(transport.requests).toEqual([]);
      expect(await readdir(dir)).toEqual(['reply.ogg']);
    });
  });

  describe.each(byName(honouring))('%s: honours it', (_name, command) => {
    it('shows what it would send and sends no write', async () => {
      const result = await run([...exampleOf(command), '--dry-run']);
      expect(result.stderr).not.toMatch(/not supported/);
      expect(result.code).toBe(0);
      expect(writes()).toEqual([]);
    });
  });

  describe.each(byName(readOnly))('%s: read-only', (_name, command) => {
    it('runs as it does without --dry-run, and writes nothing', async () => {
      const argv = exampleOf(command);
      const plain = await run(argv);
      const sent = transport.requests.splice(0).map(({ method, path }) => `${method} ${path}`);
      const dry = await run([...argv, '--dry-run']);
      expect(dry.stderr).not.toMatch(/not supported/);
      expect({ code: dry.code, stdout: dry.stdout }).toEqual({ code: plain.code, stdout: plain.stdout });
      expect(transport.requests.map(({ method, path }) => `${method} ${path}`)).toEqual(sent);
      expect(writes()).toEqual([]);
    });
  });

  it.each([
    [['chat', 'tail', '--forward-to', 'http://127.0.0.1:9/hook'], '--forward-to'],
    [['chat', 'tail', '--checkpoint', 'chat.checkpoint'], '--checkpoint'],
  ])('a read-only command given an option that writes refuses it: %j', async (argv, flag) => {
    const result = await run([...argv, '--dry-run']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: --dry-run is not supported by 'clinic chat tail' with ${flag}: nothing was done\n`,
    });
    expect(transport.requests).toEqual([]);
  });
});
