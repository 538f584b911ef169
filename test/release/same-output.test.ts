// The single executable prints what the npm package prints, byte for byte: stdout, stderr and the exit code of the
// same commands against the same sandbox and config, bin/clinic.js under Node and the executable with Node out of
// reach (help and --version, completions and the man page, usage errors, lists in every format, --jq, config,
// an API error, a bulk dry run from a CSV file, and a login with no keychain to keep it).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runCli, startWorld, type TestWorld } from '../helpers/cli.js';
import { runExecutable } from './release.js';

type Case = { args: string[]; input?: string; env?: Record<string, string | undefined> };
/** Stands for the folder of the files the cases read (made in beforeAll). */
const FILES = '<files>';
const sandbox = (...args: string[]): Case => ({ args: ['--profile', 'sandbox', ...args] });

const CASES: Case[] = [
  { args: ['--version'] },
  { args: ['--help'] },
  { args: ['help', 'erasure', 'list'] },
  { args: ['customers', '--help'] },
  { args: ['customers', 'list', '--help'] },
  { args: ['completion', 'bash'] },
  { args: ['completion', 'zsh'] },
  { args: ['completion', 'fish'] },
  { args: ['completion', 'powershell'] },
  { args: ['man'] },
  { args: ['no-such-command'] },
  { args: ['customers', 'list', '--per-page', '0'] },
  { args: ['customers', 'get'] },
  sandbox('config', 'list'),
  sandbox('config', 'list', '-o', 'json'),
  sandbox('customers', 'list', '--per-page', '5', '-o', 'json'),
  sandbox('customers', 'list', '--per-page', '5', '-o', 'ndjson'),
  sandbox('customers', 'list', '--per-page', '5', '-o', 'csv'),
  sandbox('customers', 'list', '--per-page', '5', '-o', 'table', '--utc'),
  sandbox('customers', 'list', '--all', '-o', 'csv', '--fields', 'id,email'),
  sandbox('customers', 'list', '--per-page', '5', '--jq', '.[].email'),
  sandbox('customers', 'get', '1', '-o', 'json'),
  sandbox('customers', 'get', '1', '--utc'),
  sandbox('customers', 'get', '999999', '-o', 'json'),
  sandbox('erasure', 'list', '-o', 'table', '--utc', '--wide'),
  sandbox('api', '/v1/account', '--jq', '.data.tenants[].slug'),
  sandbox('customers', 'create', '--set', 'first_name=A', '--dry-run'),
  sandbox('customers', 'get', '1', '--jq', '.['),
  // A package required, not imported (csv-parse): the executable must hold it too.
  sandbox('customers', 'create', '--from', `${FILES}/people.csv`, '--dry-run'),
  // No Secret Service to keep a sign-in in: nothing stored, exit 3 and the way on.
  {
    args: ['--profile', 'nokeychain', 'login', '--with-token'],
    input: 'a-token',
    env: { DBUS_SESSION_BUS_ADDRESS: undefined },
  },
];

let world: TestWorld;

let files: string;

beforeAll(async () => {
  world = await startWorld({ records: 12, seed: 3 });
  files = join(world.configDir, '..');
  await writeFile(join(files, 'people.csv'), 'first_name,email\nAda,ada@example.com\nBo,bo@example.com\n');
});
afterAll(() => world.close());

describe('the executable and the npm package print the same', () => {
  it.each(CASES.map((c) => [c.args.join(' '), c] as const))(
    'clinic %s',
    async (_name, { args: given, input, env }) => {
      const args = given.map((arg) => arg.replace(FILES, files));
      const npm = await runCli(world.configDir, args, { input, env });
      const executable = await runExecutable(args, { ...baseEnv(world.configDir), ...env }, input);
      expect(executable.stdout).toBe(npm.stdout);
      expect(executable.stderr).toBe(npm.stderr);
      expect(executable.code).toBe(npm.code);
      // Each case shows something, so an executable that printed nothing where the package did cannot pass.
      expect(npm.stdout + npm.stderr).not.toBe('');
    },
  );
});
