// The commands most runs share, run once as a user runs them (a profile and a token stored in the config directory,
// a local sandbox that sends the rate-limit headers the API sends, JSON into a pipe and tables on a terminal), so
// that a compile cache made after them holds their code compiled: config, building the program, signing a request,
// pacing, reading an answer, the output. Used by scripts/compile-cache.mjs (the npm package's cache) and
// scripts/package/bundle-cache.mjs (the executable's).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/clinic.js', import.meta.url));

/** The commands warmed, in order. `terminal` ones write to a stand-in terminal: the table format. */
export const WARM_UP_COMMANDS = [
  { argv: ['config', 'list', '-o', 'json'] },
  { argv: ['customers', 'get', '1', '-o', 'json'] },
  { argv: ['customers', 'get', '1'], terminal: true },
  { argv: ['customers', 'list', '-o', 'json'] },
  { argv: ['customers', 'list'], terminal: true },
];

/** How long a set-up run (`config set`, `login --with-token`) may take. */
const SET_UP_MS = 60_000;

/**
 * Runs WARM_UP_COMMANDS through the bundle's `main`, with a private home: `config list` first, then, against a
 * sandbox of three records, the rest, signed in as a user is (the sandbox's address and tenant set in the profile by
 * `config set`, its token kept in the config directory by `login --with-token --insecure-storage`: there is no
 * keychain at build time). Returns the commands that ran. Where the sandbox cannot start (no loopback) it warms what
 * it could and says so on stderr; `strict` (a release) throws instead. `each(command, env)`, when given, is awaited after
 * each command has run, in the same state (scripts/compile-cache.mjs runs it again alone there).
 */
export async function warmUp(main, { strict = false, each } = {}) {
  const done = [];
  let sandbox;
  const home = mkdtempSync(join(tmpdir(), 'clinic-warm-up-'));
  // The build's own CLINIC_* settings (a developer's token, profile or base URL) stay out of it.
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith('CLINIC_'));
  const env = {
    ...Object.fromEntries(inherited),
    HOME: home,
    CLINIC_CONFIG_DIR: join(home, 'config'),
    CLINIC_NO_COMPILE_CACHE: '1',
  };
  const run = async (command) => {
    await runWarmUp(main, command, env);
    done.push(command);
    await each?.(command, env);
  };
  try {
    await run(WARM_UP_COMMANDS[0]);
    const { startSandbox } = await import('../dist/sandbox/index.js');
    // A limit no run reaches: every answer carries X-RateLimit-* headers, as the API's do.
    sandbox = await startSandbox({ port: 0, records: 3, rateLimit: 1_000_000 });
    const { base_url: baseUrl, tenants, token } = sandbox.info;
    await setUp(['config', 'set', 'base_url', baseUrl], env);
    await setUp(['config', 'set', 'tenant', String(tenants[0].id)], env);
    await setUp(['login', '--with-token', '--insecure-storage'], env, token);
    for (const command of WARM_UP_COMMANDS.slice(1)) await run(command);
  } catch (error) {
    if (strict) throw error;
    process.stderr.write(
      `warning: the compile cache is made without warming every command (${error.message})\n`,
    );
  } finally {
    await sandbox?.close();
    rmSync(home, { recursive: true, force: true });
  }
  return done;
}

/** One warmed command through `main`: its output thrown away, its stderr in the error if it fails. */
export async function runWarmUp(main, { argv, terminal = false }, env) {
  const stdout = new Writable({ write: (_chunk, _encoding, next) => next() });
  if (terminal) Object.assign(stdout, { isTTY: true, columns: 100 });
  let told = '';
  const stderr = new Writable({ write: (chunk, _encoding, next) => next(void (told += chunk)) });
  const code = await main(argv, {
    streams: { stdin: Readable.from([]), stdout, stderr },
    env,
    signal: new AbortController().signal,
  });
  if (code !== 0) throw new Error(`clinic ${argv.join(' ')} exited ${code}: ${told.trim()}`);
}

/**
 * A set-up run by the npm package's CLI in a process of its own (the bundle being warmed may be the executable's,
 * whose packages, such as the config file's lock, only the executable itself can load). `input` goes to its stdin.
 */
function setUp(args, env, input = '') {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'ignore', 'pipe'] });
    const timer = setTimeout(() => child.kill(), SET_UP_MS);
    let told = '';
    child.stderr.on('data', (chunk) => (told += chunk));
    child.stdin.on('error', () => {}); // a child that ended first: its exit code tells
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`clinic ${args.slice(0, 2).join(' ')} exited ${code}: ${told.trim()}`));
    });
    child.stdin.end(input);
  });
}
