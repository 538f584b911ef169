// Help that teaches, checked on the declarations (not on --help text): every command has a summary and an example
// of itself, every command of the contract exists, and the assumed endpoints say so.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type CommandDef, isNoun, type NounDef } from '../../../src/cli/command.js';
import { commandNames, loadCommands } from '../../../src/commands/index.js';
import { main } from '../../../src/main.js';
import { runInProcess } from '../../helpers/in-process.js';
import { exampleLines } from '../../../src/cli/program.js';

const commands = await loadCommands();

interface Entry {
  path: string[];
  def: CommandDef | NounDef;
}

function walk(defs: readonly (CommandDef | NounDef)[], parent: string[] = []): Entry[] {
  return defs.flatMap((def) => {
    const path = [...parent, def.name];
    return [{ path, def }, ...(isNoun(def) ? walk(def.commands, path) : [])];
  });
}

const entries = walk(commands);
const find = (path: string) => entries.find((entry) => entry.path.join(' ') === path);

/** Paths the API document does not show; their help must say "assumed". */
const ASSUMED = [
  'erasure get',
  'erasure create',
  'erasure resend',
  'erasure retry',
  'erasure cancel',
  'erasure certificate',
];

/** The commands of the contract's table (shared/cli-contract.md, "Commands"), one path each. */
const CONTRACT = [
  'login',
  'logout',
  'auth status',
  'auth token',
  'auth refresh',
  'config set',
  'config get',
  'config unset',
  'config list',
  'config use-profile',
  'config profiles',
  'account',
  'tenants list',
  'tenants use',
  'users get',
  'customers list',
  'customers get',
  'customers create',
  'appointments list',
  'channels list',
  'leads notes add',
  'conversations messages',
  'conversations message',
  'conversations send-voice',
  'conversations agent status',
  'conversations agent enable',
  'conversations agent disable',
  'chat tail',
  'form-templates update',
  'announcements get',
  'ai-reports pdf',
  'sales stock-deduct',
  'transaction-types list',
  'erasure list',
  ...ASSUMED,
  'erasure watch',
  'api',
  'sandbox start',
  'completion',
  'man',
  'doctor',
];

describe('command declarations', () => {
  it('load under the names the registry lists them by, in its order', () => {
    expect(commands.map((def) => def.name)).toEqual(commandNames);
  });

  it('hold every command of the contract', () => {
    const missing = CONTRACT.filter((path) => !find(path));
    expect(missing).toEqual([]);
    expect(entries.length).toBeGreaterThanOrEqual(CONTRACT.length);
  });

  it('give every command and noun a one-line summary and a description that is not the summary again', () => {
    for (const { path, def } of entries) {
      expect(def.summary.trim(), path.join(' ')).not.toBe('');
      expect(def.summary, path.join(' ')).not.toContain('\n');
      if (def.description) expect(def.description, path.join(' ')).not.toBe(def.summary);
    }
  });

  it('give every command and noun at least one example, and each example runs that command', () => {
    const without = entries.filter(({ def }) => def.examples.length === 0).map(({ path }) => path.join(' '));
    expect(without).toEqual([]);
    for (const { path, def } of entries) {
      for (const example of def.examples) {
        // A pipeline may feed it (`echo "$PAT" | clinic login --with-token`); global options may stand before the
        // command (`clinic --profile sandbox customers list`).
        expect(example, path.join(' ')).toMatch(/(^|\| |\$\()clinic /);
        const command = path.join(' ').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        expect(example, path.join(' ')).toMatch(new RegExp(`(^|[\\s(])${command}($|[\\s)])`));
      }
    }
  });

  it('describe every option and argument', () => {
    for (const { path, def } of entries) {
      if (isNoun(def)) continue;
      for (const option of def.options ?? [])
        expect(option.description, `${path} ${option.flags}`).not.toBe('');
      for (const arg of def.args ?? []) expect(arg.description, `${path} ${arg.name}`).not.toBe('');
    }
  });

  it('say "assumed" where the API document shows no path or payload', () => {
    for (const path of ASSUMED) {
      const def = find(path)?.def;
      expect(`${def?.summary} ${def?.description ?? ''}`, path).toMatch(/assumed/i);
    }
  });

  it('group every top-level command under a category', () => {
    const loose = commands.filter((def) => !def.category).map((def) => def.name);
    expect(loose).toEqual([]);
  });
});

describe('clinic help COMMAND', () => {
  it('prints the same help as COMMAND --help, at any depth', async () => {
    for (const path of [['erasure'], ['erasure', 'list'], ['conversations', 'agent', 'enable']]) {
      const help = await runInProcess(['help', ...path]);
      const flag = await runInProcess([...path, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toBe(flag.stdout);
      expect(help.stdout).toContain(`Usage: clinic ${path.join(' ')} `);
    }
  });

  it('clinic help help is the top-level help', async () => {
    const help = await runInProcess(['help', 'help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe((await runInProcess(['--help'])).stdout);
  });

  it('refuses an unknown command with one line and exit 2', async () => {
    const result = await runInProcess(['help', 'erasure', 'nosuch']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe("error: unknown command 'nosuch' (see 'clinic erasure --help')\n");
  });

  it('suggests the command a typo meant, as the command itself does', async () => {
    for (const [argv, line] of [
      [['help', 'erasur'], "error: unknown command 'erasur' (did you mean erasure?)"],
      [['help', 'erasure', 'lisst'], "error: unknown command 'lisst' (did you mean list?)"],
      [['erasur'], "error: unknown command 'erasur' (did you mean erasure?)"],
    ] as const) {
      const result = await runInProcess([...argv]);
      expect([result.code, result.stdout, result.stderr]).toEqual([2, '', `${line}\n`]);
    }
  });

  it("a group's own help command (clinic erasure help list) shows the help and exits 0", async () => {
    const nested = await runInProcess(['erasure', 'help', 'list']);
    expect([nested.code, nested.stderr]).toEqual([0, '']);
    expect(nested.stdout).toBe((await runInProcess(['erasure', 'list', '--help'])).stdout);
    const group = await runInProcess(['erasure', 'help']);
    expect([group.code, group.stderr]).toEqual([0, '']);
    expect(group.stdout).toContain('Usage: clinic erasure [options] [command]');
    // Without a command word the group's help is an error: on stderr, exit 2.
    const bare = await runInProcess(['erasure']);
    expect([bare.code, bare.stdout]).toEqual([2, '']);
    expect(bare.stderr).toContain('Usage: clinic erasure [options] [command]');
  });

  it('a usage error asked for as JSON is one line there too, its suggestion included', async () => {
    const result = await runInProcess(['erasur', '-o', 'json']);
    expect(result.code).toBe(2);
    const [line, json] = result.stderr.trimEnd().split('\n');
    expect(line).toBe("error: unknown command 'erasur' (did you mean erasure?)");
    expect(JSON.parse(json!).error.message).toBe("unknown command 'erasur' (did you mean erasure?)");
  });

  it("names each global setting's variable and default", async () => {
    const top = (await runInProcess(['--help'])).stdout.replace(/\s+/g, ' ');
    for (const [flag, says] of [
      ['--profile <name>', "default: CLINIC_PROFILE, else the config's current_profile, else default"],
      ['--tenant <id-or-slug>', "default: CLINIC_TENANT, else the profile's tenant"],
      ['--base-url <url>', "default: CLINIC_BASE_URL, else the profile's base_url"],
      [
        '-o, --output <format>',
        "default: CLINIC_OUTPUT, else the profile's output, else table on a terminal",
      ],
    ])
      expect(top.slice(top.indexOf(` ${flag} `)).slice(0, 200)).toContain(says);
  });

  it('is listed with the tools', async () => {
    const top = await runInProcess(['--help']);
    expect(top.stdout).toMatch(/Tools:\n(?:.*\n)*? {2}help \[command\.\.\.\] +show a command's help/);
  });
});

describe('help on a narrow terminal', () => {
  /** `argv`'s help as a terminal of `columns` shows it. */
  async function helpAt(columns: number, argv: string[]): Promise<string> {
    let text = '';
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns });
    stdout.on('data', (chunk) => (text += String(chunk)));
    const stderr = new PassThrough();
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    expect(await main(argv, { streams: { stdin, stdout, stderr }, env: { NO_COLOR: '1' } })).toBe(0);
    return text;
  }

  it.each([60, 40])('at %i columns no line but an example runs past the edge', async (columns) => {
    // An example too long for the line goes on with ` \\`, never inside a quoted value.
    expect(exampleLines('clinic customers create --data \'{"a": 1}\' -o json', 40)).toBe(
      '  $ clinic customers create --data \\\n      \'{"a": 1}\' -o json',
    );
    for (const argv of [['--help'], ['erasure', 'list', '--help'], ['customers', 'create', '--help']]) {
      const help = await helpAt(columns, argv);
      // An example's line (or its continuation, after a ` \`) may hold a word or a quoted value too long to break.
      const helpLines = help.split('\n');
      const wide = helpLines.filter(
        (line, at) =>
          line.length > columns && !line.startsWith('  $ ') && !helpLines[at - 1]?.endsWith(' \\'),
      );
      expect(wide, `${argv.join(' ')}:\n${help}`).toEqual([]);
    }
    const list = (await helpAt(columns, ['erasure', 'list', '--help'])).replace(/\s+/g, ' ');
    expect(list).toContain(
      'only requests in this status (pending_verification, verified, processing, completed, expired, cancelled, failed)',
    );
    // Nothing is lost in the wrapping.
    expect(list).toContain('Global options (see clinic --help): --profile, --tenant, -o/--output, --json,');
  });
});
