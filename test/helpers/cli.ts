// End-to-end helpers: a sandbox on port 0 and `bin/clinic.js` spawned as a user runs it, in a temporary config dir.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { constants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { tempDir } from './temp-dir.js';

export { tempDir };

/** A fresh config dir in a temporary directory of its own, which also holds the cache baseEnv puts beside it. */
export async function tempConfigDir(): Promise<string> {
  const dir = join(await tempDir(), 'config');
  await mkdir(dir, { mode: 0o700 });
  return dir;
}

export const BIN = fileURLToPath(new URL('../../bin/clinic.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  nodeArgs?: string[];
}

/** A clean environment: no CLINIC_* leaking in from the developer's shell, no colour, no terminal. */
export function baseEnv(configDir: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('CLINIC_')) env[key] = value;
  return {
    ...env,
    CLINIC_CONFIG_DIR: configDir,
    // bin/clinic.js keeps V8's compile cache there: not in the developer's home.
    XDG_CACHE_HOME: join(configDir, '..', 'cache'),
    NO_COLOR: '1',
    CLINIC_CREDENTIAL_STORE: undefined,
  };
}

export function runCli(configDir: string, args: string[], options: RunOptions = {}): Promise<CliResult> {
  const env = { ...baseEnv(configDir), ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
    env,
    stdio: 'pipe',
  });
  const result = collectOutput(child);
  child.stdin.end(options.input ?? '');
  return result;
}

/** What a spawned process wrote on stdout and stderr, and its exit code, once it has closed. */
export function collectOutput(child: ChildProcess): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: shellStatus(code, signal), stdout, stderr }));
  });
}

/**
 * A process's end as a shell reads it (`$?`): its exit code, or 128 + the signal that ended it (Ctrl-C's SIGINT: 130,
 * as clinic ends on it by that signal, so that a shell's loop stops too).
 */
export function shellStatus(code: number | null, signal: NodeJS.Signals | null): number | null {
  return code ?? (signal ? 128 + constants.signals[signal] : null);
}

/** A spawned process's end as a shell reads it (shellStatus), once it has exited. */
export function exitStatus(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(shellStatus(code, signal))));
}

/** How many customers of the world's tenant carry each email, among those a search for `tag` finds. */
export async function customersOnServer(world: TestWorld, tag: string): Promise<Map<string, number>> {
  const { stdout } = await world.clinic([
    'customers',
    'list',
    '--all',
    '--filter',
    `search=${tag}`,
    '-o',
    'json',
  ]);
  const counts = new Map<string, number>();
  for (const c of JSON.parse(stdout) as { email: string }[])
    counts.set(c.email, (counts.get(c.email) ?? 0) + 1);
  return counts;
}

/** A sandbox and a config dir whose `sandbox` profile points at it and is signed in with the admin's token. */
export interface TestWorld {
  sandbox: RunningSandbox;
  configDir: string;
  /** Runs `clinic --profile sandbox ...`. */
  clinic(args: string[], options?: RunOptions): Promise<CliResult>;
  /** Requests the sandbox received since the last call. */
  newRequests(): RunningSandbox['requests'];
  close(): Promise<void>;
}

export async function startWorld(options: SandboxOptions = {}, login = true): Promise<TestWorld> {
  const sandbox = await startSandbox({ port: 0, rateLimit: 0, ...options });
  const root = await tempDir();
  const configDir = join(root, 'config');
  const { info } = sandbox;
  const clinic = (args: string[], run?: RunOptions) =>
    runCli(configDir, ['--profile', 'sandbox', ...args], run);
  for (const [key, value] of [
    ['base_url', info.base_url],
    ['tenant', '1'],
  ]) {
    await clinic(['config', 'set', key as string, value as string]);
  }
  if (login) {
    const result = await clinic(['login', '--with-token', '--insecure-storage'], { input: info.token });
    if (result.code !== 0) throw new Error(`test login failed: ${result.stderr}`);
  }
  let seen = sandbox.requests.length;
  return {
    sandbox,
    configDir,
    clinic,
    newRequests() {
      const fresh = sandbox.requests.slice(seen);
      seen = sandbox.requests.length;
      return fresh;
    },
    async close() {
      await sandbox.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** What `clinic sandbox start` writes into its profile besides base_url and tenant (startWorld sets only those). */
export async function configureRealtime(world: TestWorld, profile = 'sandbox'): Promise<void> {
  const { realtime, auth_url, client_id } = world.sandbox.info;
  for (const [key, value] of Object.entries({
    auth_url,
    client_id,
    'realtime.key': realtime.key,
    'realtime.host': realtime.host,
    'realtime.port': String(realtime.port),
    'realtime.tls': String(realtime.tls),
    'realtime.auth_endpoint': realtime.auth_endpoint,
  })) {
    const set = await runCli(world.configDir, ['--profile', profile, 'config', 'set', key, value]);
    if (set.code !== 0) throw new Error(`config set ${key}: ${set.stderr}`);
  }
}

/** The CLINIC_REALTIME_* environment that points a run at the sandbox's realtime endpoint (plain WebSocket). */
export function realtimeEnv(sandbox: RunningSandbox): Record<string, string> {
  const { realtime } = sandbox.info;
  return {
    CLINIC_REALTIME_KEY: realtime.key,
    CLINIC_REALTIME_HOST: realtime.host,
    CLINIC_REALTIME_PORT: String(realtime.port),
    CLINIC_REALTIME_TLS: 'false',
  };
}

export const lines = (text: string) => text.split('\n').filter((line) => line !== '');

/** The smallest valid customer create, for tests about who may write. */
export const CREATE_CUSTOMER = ['customers', 'create', '--set', 'first_name=A', '--set', 'last_name=B'];

/**
 * For tests that need a part of the machine (a browser, a Secret Service): in CI a missing part fails the run,
 * never a silent pass; elsewhere the test is skipped with a loud note. Returns whether the part is there.
 */
export function requirePart(available: boolean, why: string): boolean {
  if (available) return true;
  if (process.env.CI) throw new Error(why);
  console.warn(`\n*** SKIPPED: ${why} ***\n`);
  return false;
}
