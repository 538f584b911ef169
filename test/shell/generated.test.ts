// The shipped completion scripts and man page are generated from the command declarations: committed files must be
// what the generator makes of today's tree, made without loading any command's code; `clinic completion` serves them.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CommandDef, NounDef } from '../../src/cli/command.js';
import { isNoun } from '../../src/cli/command.js';
import { GENERATED_FILES, generateFiles } from '../../src/cli/completion/generate.js';
import { allNodes, commandTree, type Declarations } from '../../src/cli/completion/tree.js';
import { GLOBAL_OPTIONS } from '../../src/cli/globals.js';
import { HELP_OPTION, PROGRAM_DESCRIPTION, PROGRAM_EXAMPLES, VERSION_OPTION } from '../../src/cli/program.js';
import { loadCommands } from '../../src/commands/index.js';
import { parseShell } from '../../src/commands/completion/print.js';
import { requirePart, runCli, tempConfigDir } from '../helpers/cli.js';

const commands = await loadCommands();

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFile(new URL(path, ROOT), 'utf8');

/** The tree with every load() replaced by one that fails the test: generation must not run command code. */
function trapped(defs: readonly (CommandDef | NounDef)[], loaded: string[]): (CommandDef | NounDef)[] {
  return defs.map((def) =>
    isNoun(def)
      ? { ...def, commands: trapped(def.commands, loaded) }
      : {
          ...def,
          load: () => {
            loaded.push(def.name);
            throw new Error(`${def.name}'s code was loaded`);
          },
        },
  );
}

function declarations(loaded: string[] = []): Declarations {
  return {
    commands: trapped(commands, loaded),
    globalOptions: GLOBAL_OPTIONS,
    versionOption: VERSION_OPTION,
    helpOption: HELP_OPTION,
    description: PROGRAM_DESCRIPTION,
    examples: PROGRAM_EXAMPLES,
  };
}

describe('generated completions and man page', () => {
  it('are up to date with the declarations (run npm run completions), made without loading command code', async () => {
    const { version } = JSON.parse(await read('package.json')) as { version: string };
    const loaded: string[] = [];
    const files = generateFiles(declarations(loaded), version);
    expect(loaded).toEqual([]);
    for (const path of GENERATED_FILES) {
      const committed = await read(path).catch(() => '(missing)');
      expect(committed, `${path} is out of date: run npm run build && npm run completions`).toBe(files[path]);
    }
  });

  it('the script makes the same files from the built bundle (npm run completions -- --check)', () => {
    const script = fileURLToPath(new URL('scripts/completions.mjs', ROOT));
    const result = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('the man page covers every command, the environment, the exit codes and the files', async () => {
    const man = await read('man/clinic.1');
    const tree = commandTree(declarations());
    for (const node of allNodes(tree).slice(1)) {
      const title = ['clinic', ...node.path].join(' ').replace(/-/g, '\\-');
      expect(man, title).toContain(`.SS "${title}`);
    }
    for (const section of [
      'NAME',
      'SYNOPSIS',
      'DESCRIPTION',
      'GLOBAL OPTIONS',
      'COMMANDS',
      'ENVIRONMENT',
      'EXIT STATUS',
      'FILES',
    ])
      expect(man).toContain(`.SH ${section}\n`);
    for (const name of [
      'CLINIC_CONFIG_DIR',
      'CLINIC_PROFILE',
      'CLINIC_TOKEN',
      'CLINIC_BASE_URL',
      'CLINIC_REQUEST_TIMEOUT',
    ])
      expect(man).toContain(`\\fB${name.replace(/-/g, '\\-')}\\fR`);
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 130]) expect(man).toContain(`.TP\n\\fB${code}\\fR\n`);
  });

  it('the man page lists each variable once, and every file clinic keeps', async () => {
    const man = await read('man/clinic.1');
    const section = (name: string) => man.split(`.SH ${name}\n`)[1]?.split('\n.SH ')[0] ?? '';
    const variables = [...section('ENVIRONMENT').matchAll(/^\.TP\n\\fB([^\\]+)\\fR$/gm)].map((m) => m[1]);
    expect(variables.length).toBeGreaterThan(10);
    expect(variables).toEqual([...new Set(variables)]);
    for (const name of [
      'CLINIC_CREDENTIAL_STORE',
      'CLINIC_NO_COMPILE_CACHE',
      'XDG_CACHE_HOME',
      'CLINIC_DEBUG',
    ])
      expect(variables).toContain(name);
    const files = section('FILES');
    for (const path of [
      '$CLINIC_CONFIG_DIR/config.json',
      '$CLINIC_CONFIG_DIR/credentials.json',
      '$CLINIC_CONFIG_DIR/rate\\-limit/',
      '$XDG_CACHE_HOME/clinic/',
      'FILE.journal',
    ])
      expect(files).toContain(`.TP\n\\fB${path}\\fR\n`);
    expect(files).toContain('~/.cache/clinic');
    expect(files).toContain('CLINIC_NO_COMPILE_CACHE=1');
    expect(files).toContain('\\-\\-journal');
  });

  it('the man page lists every environment variable the CLI reads', async () => {
    const man = await read('man/clinic.1');
    const section = man.split('.SH ENVIRONMENT\n')[1]?.split('\n.SH ')[0] ?? '';
    const listed = new Set([...section.matchAll(/^\.TP\n\\fB([^\\]+)\\fR$/gm)].map((m) => m[1]));
    // What the source reads: `env.NAME`, `env['NAME']`, and every 'CLINIC_…' string (a config key's variable, a
    // variable read by name); the sandbox's are its own (clinic sandbox start --help).
    const used: string[] = [];
    const files = spawnSync('git', ['ls-files', 'src', 'bin'], {
      cwd: fileURLToPath(ROOT),
      encoding: 'utf8',
    });
    for (const file of files.stdout
      .split('\n')
      .filter((f) => /\.(ts|js)$/.test(f) && !f.startsWith('src/sandbox/'))) {
      const text = await read(file);
      for (const m of text.matchAll(/\benv\??(?:\.|\[')([A-Z][A-Z0-9_]+)/g)) used.push(m[1]!);
      for (const m of text.matchAll(/'(CLINIC_[A-Z_]+)'/g)) used.push(m[1]!);
    }
    // Not the user's to set: the process's own (HOME), Node's, and error codes that look like variables.
    const notOptions = new Set([
      'HOME',
      'NODE_OPTIONS',
      'CLINIC_DEADLINE',
      'CLINIC_CUT_OFF',
      'CLINIC_OAUTH_EXCHANGE',
      'CLINIC_UNASKED_UPGRADE',
    ]);
    const unlisted = [...new Set(used)].filter((name) => !notOptions.has(name) && !listed.has(name));
    expect(used).toContain('CLINIC_FORWARD_SECRET');
    expect(unlisted).toEqual([]);
  });

  it('the man page has the help command, which program.ts adds itself', async () => {
    expect(await read('man/clinic.1')).toContain('.SS "clinic help [command...]"\n');
  });

  it('refuses a command name or a choice that a shell could expand or split', () => {
    const fake = (choices: string[], name = 'verb'): Declarations => ({
      ...declarations(),
      commands: [
        {
          name,
          summary: 's',
          examples: [],
          options: [{ flags: '--mode <m>', key: 'mode', description: 'd', choices }],
          load: () => Promise.reject(new Error('not loaded')),
        },
      ],
    });
    expect(() => commandTree(fake(['plain', 'v1.2_x-y']))).not.toThrow();
    for (const word of ['$(touch x)', '`touch x`', '${HOME}', 'two words', "it's", 'a{b,c}', '*', '-x', ''])
      expect(() => commandTree(fake([word])), word).toThrow(/is not a plain word/);
    expect(() => commandTree(fake(['plain'], '$(touch x)'))).toThrow(/is not a plain word/);
  });

  it('the man page renders without warnings', (t) => {
    const groff = spawnSync('groff', ['-v'], { stdio: 'ignore' }).status === 0;
    if (!requirePart(groff, 'groff is not installed: the man page is not rendered')) return t.skip();
    const page = fileURLToPath(new URL('man/clinic.1', ROOT));
    const result = spawnSync('groff', ['-man', '-Tutf8', '-ww', page], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('erasure list');
  });

  it('the zsh script is a compsys function and the others register clinic', async () => {
    expect((await read('completions/_clinic')).startsWith('#compdef clinic\n')).toBe(true);
    expect(await read('completions/clinic.bash')).toContain('\ncomplete -F _clinic clinic\n');
    expect(await read('completions/clinic.fish')).toContain('\ncomplete -c clinic -f\n');
  });
});

describe('clinic completion', () => {
  it('prints the shipped script of each shell', async () => {
    const dir = await tempConfigDir();
    for (const [shell, file] of [
      ['bash', 'clinic.bash'],
      ['zsh', '_clinic'],
      ['fish', 'clinic.fish'],
    ] as const) {
      const result = await runCli(dir, ['completion', shell]);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(await read(`completions/${file}`));
    }
  });

  it('refuses another shell with exit 2 and one line', async () => {
    const result = await runCli(await tempConfigDir(), ['completion', 'powershell']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      "error: shell: unknown value 'powershell'; use one of bash, zsh, fish",
    ]);
  });

  it('parses only the three shells', () => {
    expect(parseShell(['zsh'])).toBe('zsh');
    expect(() => parseShell(['tcsh'])).toThrow(/unknown shell 'tcsh'; use one of bash, zsh, fish/);
  });
});

describe('clinic man', () => {
  it('prints the shipped man page', async () => {
    const result = await runCli(await tempConfigDir(), ['man']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(await read('man/clinic.1'));
  });
});
