// Every example of every command's help (from the declarations help is made of) and every command of the README,
// run as written in a real shell with `clinic` on PATH, each against a sandbox of its own started on port 0 with
// its seeded data, as someone does who ran `clinic sandbox start` and signed in: so no example in front of a user
// fails. Examples that ask on a terminal run on a pseudo-terminal and are answered; those that run until stopped
// (sandbox start, chat tail) are stopped once they are up, as with Ctrl-C. None is skipped.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CommandDef, isNoun, type NounDef } from '../../../src/cli/command.js';
import { PROGRAM_EXAMPLES } from '../../../src/cli/program.js';
import { loadCommands } from '../../../src/commands/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { BIN, baseEnv, type CliResult, collectOutput, tempDir } from '../../helpers/cli.js';
import { onPty, plain } from '../../helpers/pty.js';

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const FETCH_BROWSER = fileURLToPath(new URL('../../helpers/fetch-browser.mjs', import.meta.url));

/** Each help example once, with the first command whose help shows it. */
function helpExamples(defs: readonly (CommandDef | NounDef)[], parent: string[] = []): [string, string][] {
  return defs.flatMap((def): [string, string][] => {
    const path = [...parent, def.name].join(' ');
    const own = def.examples.map((example): [string, string] => [`${path} --help`, example]);
    return [...own, ...(isNoun(def) ? helpExamples(def.commands, [...parent, def.name]) : [])];
  });
}

/** The README's shell blocks, recipes aside (readme-recipes.test.ts runs those): the lines that run clinic. */
async function readmeBlocks(): Promise<{ heading: string; lines: string[] }[]> {
  const text = await readFile(README, 'utf8');
  const blocks: { heading: string; lines: string[] }[] = [];
  let heading = '';
  const parts = text.split(/^```/m);
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      heading = [...part.matchAll(/^#+ (.*)$/gm)].at(-1)?.[1] ?? heading;
      return;
    }
    if (!part.startsWith('sh\n') || /<!-- recipe: [\w-]+ -->\s*$/.test(parts[i - 1] ?? '')) return;
    const lines = part
      .slice(3)
      .split('\n')
      .filter((line) => /(^|[|&;]\s*|\$\()clinic\s/.test(line) && !line.trimStart().startsWith('#'));
    if (lines.length > 0) blocks.push({ heading, lines });
  });
  return blocks;
}

const commands = await loadCommands();
const HELP = [
  ...PROGRAM_EXAMPLES.map((example): [string, string] => ['clinic --help', example]),
  ...helpExamples(commands),
];
const unique = [...new Map(HELP.map(([where, example]) => [example, where])).entries()].map(
  ([example, where]): [string, string] => [where, example],
);
const BLOCKS = await readmeBlocks();

/** Commands that run until stopped, and what they show once they are up. */
const RUNS_UNTIL_STOPPED: [RegExp, RegExp][] = [
  [/\bclinic sandbox start\b/, /"base_url"/],
  [/\bclinic (--profile \S+ )?chat tail\b/, /listening on|connected/],
];
/** What a confirmation or the sign-in shows on a terminal. */
const ASKS = /\(y\/N\)|Type (\S+)\s+to\s+confirm:|paste\s+the\s+address/;

let root: string;
let pathDir: string;

beforeAll(async () => {
  root = await tempDir('clinic-examples-');
  // `clinic` on PATH as `npm link` puts it there, and `lpr` (a printer) as a sink for the example that prints.
  pathDir = join(root, 'bin');
  await mkdir(pathDir);
  await writeFile(join(pathDir, 'clinic'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await writeFile(join(pathDir, 'lpr'), '#!/bin/sh\ncat >/dev/null\n');
  await Promise.all(['clinic', 'lpr'].map((name) => chmod(join(pathDir, name), 0o755)));
});

/** A place as a user's machine has it: a sandbox, a signed-in `sandbox` profile (current) and a `prod` one. */
interface Place {
  sandbox: RunningSandbox;
  env: Record<string, string>;
  cwd: string;
  close(): Promise<void>;
}

async function freshPlace(): Promise<Place> {
  const sandbox = await startSandbox({ port: 0, rateLimit: 0 });
  const { info } = sandbox;
  const dir = await tempDir('clinic-example-');
  const [configDir, home, cwd] = ['config', 'home', 'work'].map((name) => join(dir, name)) as [
    string,
    string,
    string,
  ];
  for (const folder of [
    configDir,
    join(home, '.local/share/bash-completion/completions'),
    join(home, '.config/fish/completions'),
    join(home, '.zfunc'),
    join(cwd, 'reports'),
    join(cwd, 'certs'),
  ])
    await mkdir(folder, { recursive: true, mode: 0o700 });
  await chmod(configDir, 0o700);
  const origin = new URL(info.base_url).origin;
  const profile = {
    base_url: info.base_url,
    auth_url: info.auth_url,
    client_id: info.client_id,
    tenant: '1',
    credential_store: 'file',
    realtime: {
      key: info.realtime.key,
      host: info.realtime.host,
      port: String(info.realtime.port),
      tls: String(info.realtime.tls),
      auth_endpoint: info.realtime.auth_endpoint,
    },
  };
  const signIn = {
    kind: 'pat',
    access_token: info.token,
    token_type: 'bearer',
    user: 'Dana Admin <dana.admin@clinic-sandbox.test>',
    origins: { base_url: origin, auth_url: origin },
  };
  await writeFile(
    join(configDir, 'config.json'),
    JSON.stringify({ current_profile: 'sandbox', profiles: { sandbox: profile, prod: profile } }),
    { mode: 0o600 },
  );
  await writeFile(join(configDir, 'credentials.json'), JSON.stringify({ sandbox: signIn, prod: signIn }), {
    mode: 0o600,
  });
  // The files the examples name, as a user would have them at hand.
  const leads = sandbox.fixtures.tenants[1]!.leads;
  const files: Record<string, string> = {
    'customer.json': '{"first_name":"Ada","last_name":"Lovelace","email":"ada@example.com"}\n',
    'patients.csv':
      'first_name,last_name,email\nAda,"Lovelace, Countess",ada@example.com\nGrace,Hopper,grace@example.com\n',
    'notes.csv': `lead_id,content\n${leads.unassigned},Called back\n${leads.assignedToSalesperson},Books next week\n`,
    'requests.csv': 'customer_id,request_reason\n2,asked by email\n3,asked at the desk\n',
    'reply.ogg': 'OggS voice',
    'note.m4a': 'm4a voice',
    'long-note.ogg': 'OggS a long voice',
  };
  for (const [name, content] of Object.entries(files)) await writeFile(join(cwd, name), content);
  const env = Object.fromEntries(
    Object.entries({
      ...baseEnv(configDir),
      HOME: home,
      PATH: `${pathDir}:${process.env.PATH}`,
      BROWSER: `"${process.execPath}" "${FETCH_BROWSER}"`,
      CLINIC_PAT: info.token,
      TOKEN: info.token,
      TZ: 'Europe/Berlin',
      // No Secret Service here: sign-ins made by the examples are kept in the config directory.
      CLINIC_CREDENTIAL_STORE: 'file',
    }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return {
    sandbox,
    env,
    cwd,
    close: async () => {
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function shell(line: string, place: Place): ChildProcess {
  return spawn('bash', ['--noprofile', '--norc', '-c', line], {
    cwd: place.cwd,
    env: place.env,
    detached: true, // its own process group, so that a stop (Ctrl-C) reaches the whole pipeline
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A command that runs until stopped: started, and stopped (SIGINT to its group) once it shows it is up. */
async function startUntilStopped(line: string, ready: RegExp, place: Place) {
  const child = shell(line, place);
  const result = collectOutput(child);
  let shown = '';
  await new Promise<void>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      shown += chunk.toString();
      if (ready.test(shown)) resolve();
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.on('close', () => reject(new Error(`${line}: ended before it was up:\n${shown}`)));
  });
  return {
    stop: async (): Promise<CliResult> => {
      process.kill(-child.pid!, 'SIGINT');
      return result;
    },
  };
}

/** A command that asks on a terminal: run on a pseudo-terminal, each question answered as a user would. */
async function onTerminal(line: string, place: Place): Promise<CliResult> {
  const session = onPty(['bash', '--noprofile', '--norc', '-c', line], {
    env: place.env,
    cwd: place.cwd,
    cols: 200,
  });
  const answered = new Set<string>();
  for (;;) {
    const next = await Promise.race([
      session.exited.then(() => 'exited' as const),
      session.waitFor(ASKS, 60_000).then(() => 'asked' as const),
    ]);
    if (next === 'exited') break;
    const text = plain(session.output);
    const typed = /Type (\S+)\s+to\s+confirm:/.exec(text)?.[1];
    const address = /(http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(text)?.[1];
    if (typed && !answered.has('typed')) {
      answered.add('typed');
      session.type(`${typed}\r`);
    } else if (/\(y\/N\)/.test(text) && !answered.has('yes')) {
      answered.add('yes');
      session.type('y\r');
    } else if (address && !answered.has('address')) {
      // The sign-in address opened in a browser elsewhere (over SSH): the loopback listener gets the callback.
      answered.add('address');
      const { signIn } = (await import(FETCH_BROWSER)) as { signIn(url: string): Promise<string> };
      await fetch(await signIn(address));
    }
    const { code, output } = await Promise.race([
      session.exited,
      new Promise<{ code: null; output: string }>((resolve) =>
        setTimeout(() => resolve({ code: null, output: '' }), 200),
      ),
    ]);
    if (code !== null) return { code, stdout: plain(output), stderr: '' };
  }
  const { code, output } = await session.exited;
  return { code, stdout: plain(output), stderr: '' };
}

/** Whether a line asks on a terminal (its comment aside: "--yes in scripts" there is no --yes). */
function asksOnTerminal(line: string): boolean {
  const command = line.replace(/\s#.*$/, '');
  return (
    /--no-browser/.test(command) ||
    (/\b(erasure (create|cancel|retry)|sales stock-deduct)\b/.test(command) &&
      !/(--yes|--dry-run)\b/.test(command))
  );
}

/** Runs one line as the user would; `background` keeps what runs until stopped (a block's "terminal 1"). */
async function runLine(typed: string, place: Place, background: { stop(): Promise<CliResult> }[]) {
  // api.example.com stands for the user's own server: here, the sandbox.
  const line = typed.replaceAll('https://api.example.com/api', place.sandbox.info.base_url);
  const stopped = RUNS_UNTIL_STOPPED.find(([pattern]) => pattern.test(line));
  if (stopped) {
    const running = await startUntilStopped(line, stopped[1], place);
    background.push(running);
    return undefined;
  }
  if (asksOnTerminal(line)) return onTerminal(line, place);
  // An OAuth sign-in for the examples that need a refresh token or an ID token (a personal token has neither).
  if (/\bauth refresh\b|--end-session/.test(line))
    for (const profile of ['sandbox', 'prod']) {
      const login = shell(`clinic --profile ${profile} login`, place);
      expect((await collectOutput(login)).code).toBe(0);
    }
  return collectOutput(shell(line, place));
}

/** What a stopped command may end with, as Ctrl-C leaves it: done, interrupted, or its shell ended by the signal. */
const STOPPED_CLEANLY = [0, 130, null];

async function expectRuns(lines: string[]) {
  const place = await freshPlace();
  const background: { stop(): Promise<CliResult> }[] = [];
  try {
    for (const line of lines) {
      const result = await runLine(line, place, background);
      // A README line whose comment says it is refused shows the refusal: exit 2.
      const expected = /#\s*refused\b/.test(line) ? 2 : 0;
      if (result) expect(result.code, `${line}\n${result.stderr}${result.stdout}`).toBe(expected);
    }
    for (const running of background.reverse()) {
      const result = await running.stop();
      expect(STOPPED_CLEANLY, `${lines.join('\n')}\n${result.stderr}`).toContain(result.code);
    }
  } finally {
    await place.close();
  }
}

describe('every example of the help', () => {
  it('there are examples of every kind to run', () => {
    expect(unique.length).toBeGreaterThan(80);
  });

  it.each(unique)('%s: %s', async (_where, example) => expectRuns([example]), 120_000);
});

describe("the README's commands, block by block (a block's lines share its machine, in order)", () => {
  it.each(BLOCKS.map((block) => [block.heading, block.lines] as const))(
    '%s',
    async (_heading, lines) => expectRuns([...lines]),
    300_000,
  );
});
