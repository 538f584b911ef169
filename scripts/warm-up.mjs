// The commands most runs share, run once against a local sandbox as a user runs them (a profile and a token stored
// in the config directory, the rate-limit headers the API sends, JSON and the default output), so that a compile
// cache made after them holds their code compiled: config, building the program, signing a request, pacing, reading
// an answer, the output. Used by scripts/compile-cache.mjs (the npm package's cache) and
// scripts/package/bundle-cache.mjs (the executable's).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../dist/sandbox/index.js';

const BIN = fileURLToPath(new URL('../bin/clinic.js', import.meta.url));

/** The commands warmed, in order, after the sign-in. */
export const WARM_UP_COMMANDS = [
  ['config', 'list', '-o', 'json'],
  ['customers', 'get', '1', '-o', 'json'],
  ['customers', 'get', '1'],
  ['customers', 'list', '--per-page', '2', '-o', 'json'],
  ['customers', 'list', '--per-page', '2'],
];

/**
 * Signs in (the sandbox's address and tenant set in the profile, its token kept in the config directory: there is
 * no keychain at build time; CLINIC_NO_COMPILE_CACHE keeps those runs from writing one), then runs WARM_UP_COMMANDS through the bundle's `main`, with a private home, against
 * a sandbox of three records. Returns the commands that ran: a build where the sandbox cannot start (no loopback)
 * warms less, says so on stderr, and does not fail.
 */
export async function warmUp(main) {
  const done = [];
  let sandbox;
  const home = mkdtempSync(join(tmpdir(), 'clinic-warm-up-'));
  try {
    // A limit no run reaches: every answer carries X-RateLimit-* headers, as the API's do.
    sandbox = await startSandbox({ port: 0, records: 3, rateLimit: 1_000_000 });
    const { base_url: baseUrl, tenants, token } = sandbox.info;
    const env = { HOME: home, CLINIC_CONFIG_DIR: join(home, 'config'), CLINIC_NO_COMPILE_CACHE: '1' };
    const discard = new Writable({ write: (_chunk, _encoding, next) => next() });
    const run = async (argv) => {
      let told = '';
      const stderr = new Writable({ write: (chunk, _encoding, next) => next(void (told += chunk)) });
      const code = await main(argv, {
        streams: { stdin: Readable.from([]), stdout: discard, stderr },
        env,
        signal: new AbortController().signal,
      });
      if (code !== 0) throw new Error(`clinic ${argv.join(' ')} exited ${code}: ${told.trim()}`);
    };
    // Set up by the npm package's CLI in processes of their own: the bundle being warmed may be the executable's,
    // whose packages (the config file's lock) only the executable itself can load.
    const setUp = (args, input = '') =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, ...args], {
          env: { PATH: process.env.PATH, ...env },
          stdio: ['pipe', 'ignore', 'pipe'],
        });
        let told = '';
        child.stderr.on('data', (chunk) => (told += chunk));
        child.on('error', reject);
        child.on('close', (code) =>
          code === 0 ? resolve() : reject(new Error(`clinic ${args[0]} exited ${code}: ${told.trim()}`)),
        );
        child.stdin.end(input);
      });
    await setUp(['config', 'set', 'base_url', baseUrl]);
    await setUp(['config', 'set', 'tenant', String(tenants[0].id)]);
    await setUp(['login', '--with-token', '--insecure-storage'], token);
    for (const argv of WARM_UP_COMMANDS) {
      await run(argv);
      done.push(argv);
    }
  } catch (error) {
    process.stderr.write(
      `warning: the compile cache is made without warming every command (${error.message})\n`,
    );
  } finally {
    await sandbox?.close();
    rmSync(home, { recursive: true, force: true });
  }
  return done;
}
