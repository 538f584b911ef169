// The generated completion scripts, loaded in the real shells (Debian's bash, zsh, fish) with `clinic` on PATH:
// what partial command lines complete to. bash: COMP_WORDS/COMP_CWORD/COMP_LINE/COMP_POINT and the completion
// function, reading COMPREPLY; fish: `complete -C`; zsh: an interactive zsh in a zpty with compinit and TAB.
import { spawn, spawnSync } from 'node:child_process';
import { access, chmod, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_LINE } from '../../src/cli/completion/profiles.js';
import { checkProfileName } from '../../src/core/config/config-file.js';
import { BIN, requirePart, tempDir } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COMPLETIONS = join(ROOT, 'completions');
const ERASURE_VERBS = ['cancel', 'certificate', 'create', 'get', 'list', 'resend', 'retry', 'watch'];
const ZSH_DRIVER = fileURLToPath(new URL('./zsh-complete.zsh', import.meta.url));

type Shell = 'bash' | 'zsh' | 'fish';

const has = (shell: Shell, check: string) =>
  spawnSync(shell, ['-c', check], { stdio: 'ignore' }).status === 0;
const available: Record<Shell, boolean> = {
  bash: has('bash', 'true'),
  zsh: has('zsh', 'zmodload zsh/zpty'),
  fish: has('fish', 'true'),
};

const BASH = `
source "$COMPLETIONS/clinic.bash"
line=$1
read -ra COMP_WORDS <<<"$line"
[[ $line == *' ' ]] && COMP_WORDS+=('')
COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))
COMP_LINE=$line
COMP_POINT=\${#line}
_clinic clinic "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}"
`;

let root: string;
let env: Record<string, string>;
let cwd: string;
/** A config dir whose profile names are shell code and quoting, besides a few valid ones. */
let hostile: string;

/** Profile names with letters, digits, '.', '_' and '-': what the CLI accepts, and all the scripts may offer. */
const VALID = ['0', 'A9', 'ok-name', 'v1.2_x-y', 'z'.repeat(64)];

/** Names the CLI refuses: code to run (touching a file under `mark`), expansions, quoting, a line break. */
const invalid = (mark: string) => [
  `$(touch ${mark}/pwned-dollar)`,
  `\`touch ${mark}/pwned-backtick\``,
  `$(touch pwned-here)`,
  '${HOME}',
  '$HOME',
  '~',
  '*',
  'two words',
  "it's",
  'a{b,c}',
  '"quoted"',
  'a,b',
  '-dash',
  '.dot',
  'x\nvalid-looking\ny',
  'a'.repeat(65),
];

interface Completed {
  words: string[];
  /** The candidates as the shell gave them, a description after a tab where it has one (fish). */
  lines: string[];
  stderr: string;
}

function run(command: string, args: string[], extraEnv: Record<string, string> = {}): Promise<Completed> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${command} exited ${code}: ${stderr}`));
      const words = stdout
        .split('\n')
        .map((line) => line.split('\t')[0] as string)
        .filter((word) => word !== '');
      const lines = stdout.split('\n').filter((line) => line !== '');
      resolve({ words: [...new Set(words)].sort(), lines, stderr });
    });
  });
}

/** What `line` (the cursor at its end) completes to in `shell`: the candidates, sorted. */
function complete(shell: Shell, line: string, extraEnv: Record<string, string> = {}): Promise<Completed> {
  switch (shell) {
    case 'bash':
      return run('bash', ['--norc', '--noprofile', '-c', BASH, 'bash', line], extraEnv);
    case 'fish':
      return run(
        'fish',
        ['--no-config', '-c', 'source $COMPLETIONS/clinic.fish; complete -C -- "$CLINIC_LINE"'],
        { ...extraEnv, CLINIC_LINE: line },
      );
    case 'zsh':
      return run('zsh', ['-f', ZSH_DRIVER, COMPLETIONS, line], extraEnv);
  }
}

beforeAll(async () => {
  root = await tempDir('clinic-completions-');
  // `clinic` on PATH: a wrapper running this checkout's bin/clinic.js.
  const bin = join(root, 'bin');
  await mkdir(bin);
  await writeFile(join(bin, 'clinic'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  await chmod(join(bin, 'clinic'), 0o755);
  const configDir = join(root, 'config');
  await mkdir(configDir, { mode: 0o700 });
  await writeFile(
    join(configDir, 'config.json'),
    JSON.stringify({
      current_profile: 'alpha',
      profiles: {
        // No base_url: tenant slugs can only come from the file.
        alpha: {
          tenant: '1',
          tenant_slugs: { northside: '1', 'harbor-dental': '2', '$(touch pwned-slug)': '3', 'a b': '4' },
        },
        'beta-prod': { base_url: 'https://api.example.com/api', tenant_slugs: { 'lakeview-physio': '3' } },
      },
    }),
    { mode: 0o600 },
  );
  hostile = join(root, 'hostile');
  await mkdir(join(hostile, 'marks'), { recursive: true, mode: 0o700 });
  const profiles: Record<string, object> = {};
  for (const name of [...VALID, ...invalid(join(hostile, 'marks'))]) profiles[name] = {};
  await writeFile(join(hostile, 'config.json'), JSON.stringify({ current_profile: 'ok-name', profiles }), {
    mode: 0o600,
  });
  cwd = join(root, 'work');
  await mkdir(join(cwd, 'data'), { recursive: true });
  for (const file of ['customers.ndjson', 'people.csv', 'voice.ogg']) await writeFile(join(cwd, file), '');
  const inherited: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith('CLINIC_')) inherited[key] = value;
  env = {
    ...inherited,
    PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
    COMPLETIONS,
    CLINIC_CONFIG_DIR: configDir,
    XDG_CACHE_HOME: join(root, 'cache'),
    HOME: root,
  };
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

const STATUSES = [
  'cancelled',
  'completed',
  'expired',
  'failed',
  'pending_verification',
  'processing',
  'verified',
];

/** Tests of lines that each complete to exactly these words, in every shell. */
const COMPLETES: { name: string; lines: [line: string, words: string[]][] }[] = [
  { name: 'completes a command name: clinic er → erasure', lines: [['clinic er', ['erasure']]] },
  {
    name: "completes a noun's verbs and a nested noun's verbs",
    lines: [
      ['clinic erasure ', ERASURE_VERBS],
      ['clinic conversations agent ', ['disable', 'enable', 'status']],
    ],
  },
  {
    name: 'completes the seven erasure statuses after --status',
    lines: [['clinic erasure list --status ', STATUSES]],
  },
  {
    name: 'completes output formats after -o, before or after the command',
    lines: ['clinic -o ', 'clinic customers list -o ', 'clinic --profile alpha customers list --output '].map(
      (line): [string, string[]] => [line, ['csv', 'json', 'ndjson', 'table']],
    ),
  },
  {
    name: "completes a verb's flags and the global ones",
    lines: [
      ['clinic customers list --per', ['--per-page']],
      ['clinic erasure list --sort-', ['--sort-by', '--sort-order']],
      ['clinic customers get 12 --dry', ['--dry-run']],
    ],
  },
  {
    name: 'completes other declared values: sort fields, chat event kinds, shells',
    lines: [
      ['clinic erasure list --sort-by ', ['created_at', 'executed_at', 'status', 'verified_at']],
      ['clinic chat tail --events ', ['created', 'deleted', 'read']],
      ['clinic completion ', ['bash', 'fish', 'zsh']],
    ],
  },
  {
    name: 'completes profile names from the config file in CLINIC_CONFIG_DIR',
    lines: [
      ['clinic --profile ', ['alpha', 'beta-prod']],
      ['clinic customers list --profile b', ['beta-prod']],
      ['clinic config use-profile ', ['alpha', 'beta-prod']],
    ],
  },
  {
    name: 'completes config keys after config get/set/unset',
    lines: [
      [
        'clinic config get realtime.',
        [
          'realtime.auth_endpoint',
          'realtime.cluster',
          'realtime.host',
          'realtime.key',
          'realtime.port',
          'realtime.tls',
        ],
      ],
      ['clinic config set ba', ['base_url']],
      ['clinic config unset te', ['tenant']],
    ],
  },
];

describe.each(['bash', 'zsh', 'fish'] as const)('%s completion', (shell) => {
  const there = () =>
    requirePart(available[shell], `${shell} is not installed: its completions are not tested`);

  for (const { name, lines } of COMPLETES)
    it(name, async (t) => {
      if (!there()) return t.skip();
      for (const [line, words] of lines) expect((await complete(shell, line)).words, line).toEqual(words);
    });

  it('completes files where a file is expected', async (t) => {
    if (!there()) return t.skip();
    const files = (await complete(shell, 'clinic customers create --from ')).words.map((f) =>
      f.replace(/\/$/, ''),
    );
    expect(files).toEqual(expect.arrayContaining(['customers.ndjson', 'data', 'people.csv', 'voice.ogg']));
    expect((await complete(shell, 'clinic customers create --from cu')).words).toEqual(['customers.ndjson']);
    expect((await complete(shell, 'clinic conversations send-voice 7 vo')).words).toEqual(['voice.ogg']);
    expect((await complete(shell, 'clinic api /v1/account --input pe')).words).toEqual(['people.csv']);
  });

  it("completes the selected profile's remembered tenant slugs, from the file alone", async (t) => {
    if (!there()) return t.skip();
    expect((await complete(shell, 'clinic --tenant ')).words).toEqual(['harbor-dental', 'northside']);
    expect((await complete(shell, 'clinic customers list --tenant h')).words).toEqual(['harbor-dental']);
    expect((await complete(shell, 'clinic tenants use ')).words).toEqual(['harbor-dental', 'northside']);
    await expect(access(join(cwd, 'pwned-slug'))).rejects.toThrow();
  });

  it.runIf(shell === 'fish')(
    "describes each tenant slug and profile briefly, not with the option's help",
    async (t) => {
      if (!there()) return t.skip();
      expect((await complete(shell, 'clinic --tenant ')).lines.sort()).toEqual([
        'harbor-dental\tremembered tenant',
        'northside\tremembered tenant',
      ]);
      expect((await complete(shell, 'clinic --profile ')).lines.sort()).toEqual([
        'alpha\tprofile',
        'beta-prod\tprofile',
      ]);
    },
  );

  it('a comma-separated list offers only the values not chosen yet', async (t) => {
    if (!there()) return t.skip();
    // bash and fish offer the whole word (created,deleted), zsh the value after the comma.
    const last = async (line: string) =>
      (await complete(shell, line)).words.map((word) => word.slice(word.lastIndexOf(',') + 1));
    expect(await last('clinic chat tail --events created,')).toEqual(['deleted', 'read']);
    expect(await last('clinic chat tail --events read,created,')).toEqual(['deleted']);
  });

  it('completes the slugs of the profile the line names with --profile, else CLINIC_PROFILE', async (t) => {
    if (!there()) return t.skip();
    for (const line of [
      'clinic --profile beta-prod --tenant ',
      'clinic --profile=beta-prod customers list --tenant l',
      'clinic customers list --profile beta-prod --tenant ',
    ])
      expect((await complete(shell, line)).words, line).toEqual(['lakeview-physio']);
    const fromEnv = { CLINIC_PROFILE: 'beta-prod' };
    expect((await complete(shell, 'clinic --tenant ', fromEnv)).words).toEqual(['lakeview-physio']);
    expect((await complete(shell, 'clinic --profile alpha --tenant ', fromEnv)).words).toEqual([
      'harbor-dental',
      'northside',
    ]);
    // A profile the config lacks, or a name the CLI refuses (never passed on): nothing to offer.
    expect((await complete(shell, 'clinic --profile nosuch --tenant ')).words).toEqual([]);
    expect((await complete(shell, 'clinic --profile no/such --tenant ')).words).toEqual([]);
  });

  it('offers no subcommands where an argument is expected, and no files where none is', async (t) => {
    if (!there()) return t.skip();
    expect((await complete(shell, 'clinic erasure get ')).words).toEqual([]);
    // zsh's _arguments offers the options once no argument is left to give; no verbs, no files.
    const after = (await complete(shell, 'clinic erasure get 12 ')).words;
    expect(after.filter((word) => !word.startsWith('-'))).toEqual([]);
  });

  it('offers exactly the valid profile names, never running or expanding the others', async (t) => {
    if (!there()) return t.skip();
    const at = { CLINIC_CONFIG_DIR: hostile };
    const lines = ['clinic --profile ', 'clinic config use-profile ', 'clinic customers list --profile '];
    const offered = await Promise.all(lines.map(async (line) => (await complete(shell, line, at)).words));
    // Nothing ran: no name's command substitution made its file, here or under the marks directory.
    expect(await readdir(join(hostile, 'marks'))).toEqual([]);
    await expect(access(join(cwd, 'pwned-here'))).rejects.toThrow();
    lines.forEach((line, i) => expect(offered[i], line).toEqual(VALID));
    expect((await complete(shell, 'clinic --profile v', at)).words).toEqual(['v1.2_x-y']);
    // A prefix that only an expansion would match: \${HOME} is not offered as the home directory.
    expect((await complete(shell, `clinic --profile ${root.slice(0, 4)}`, at)).words).toEqual([]);
    if (shell !== 'zsh')
      expect((await complete(shell, 'clinic --profile=o', at)).words).toEqual(['--profile=ok-name']);
  });

  it('completes help with the commands: clinic help erasure <TAB> → its verbs', async (t) => {
    if (!there()) return t.skip();
    const top = (await complete(shell, 'clinic help ')).words;
    expect(top).toEqual(expect.arrayContaining(['config', 'conversations', 'customers', 'erasure', 'help']));
    expect(top).not.toContain('list');
    expect(top).toEqual((await complete(shell, 'clinic ')).words.filter((word) => !word.startsWith('-')));
    expect((await complete(shell, 'clinic he')).words).toEqual(['help']);
    expect((await complete(shell, 'clinic help er')).words).toEqual(['erasure']);
    expect((await complete(shell, 'clinic help conversations agent ')).words).toEqual([
      'disable',
      'enable',
      'status',
    ]);
    expect((await complete(shell, 'clinic help erasure ')).words).toEqual(ERASURE_VERBS);
    const after = (await complete(shell, 'clinic help erasure list ')).words;
    expect(after.filter((word) => !word.startsWith('-'))).toEqual([]);
  }, 120_000); // seven completions in a fresh zsh each: about 6 s apiece on a loaded machine

  it('prints nothing into the terminal when the config file is broken', async (t) => {
    if (!there()) return t.skip();
    const broken = join(root, 'broken');
    await mkdir(broken, { recursive: true, mode: 0o700 });
    await writeFile(join(broken, 'config.json'), '{ not json', { mode: 0o600 });
    const result = await complete(shell, 'clinic --profile ', { CLINIC_CONFIG_DIR: broken });
    expect(result.words).toEqual([]);
    expect(result.stderr).toBe('');
  });
});

describe('the profile-name filter of the scripts', () => {
  it('keeps the output line of a profile name exactly when the CLI accepts the name', () => {
    const valid = (name: string) => {
      try {
        checkProfileName(name);
        return true;
      } catch {
        return false;
      }
    };
    const pattern = new RegExp(PROFILE_LINE);
    for (const name of [
      ...VALID,
      ...invalid('/tmp'),
      'é',
      'a\u00e9',
      'A'.repeat(64),
      'a b',
      'a\tb',
      'a/b',
      'Ω',
    ]) {
      const line = JSON.stringify({ name });
      expect(pattern.test(line), name).toBe(valid(name));
      if (valid(name)) expect(pattern.exec(line)?.[1]).toBe(name);
    }
  });
});
