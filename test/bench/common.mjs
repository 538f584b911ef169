// Shared helpers of the benchmarks: clean environments, medians, a CLI run with its peak RSS, sandboxes.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/clinic.js', import.meta.url));
const RSS = fileURLToPath(new URL('./report-rss.mjs', import.meta.url));

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const tempDir = (prefix) => mkdtempSync(join(tmpdir(), prefix));

/**
 * What a user's shell gives Node, and nothing more: a variable such as NODE_EXTRA_CA_CERTS adds the same tens of
 * milliseconds to every start and would flatter every ratio. HOME is a fresh folder, so the config is under it.
 */
export function cleanEnv(home, extra = {}) {
  return { HOME: home, PATH: '/usr/bin:/bin', ...extra };
}

/** Wall time of one run, in ms. */
export function wallMs(args, env) {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, args, { env, stdio: 'ignore' });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The middle half of `values` (first to third quartile), as "a-b". */
export const spread = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.floor((sorted.length - 1) * q)];
  return `${at(0.25).toFixed(1)}-${at(0.75).toFixed(1)}`;
};

/**
 * Alternating runs, so drift in the machine's load hits every candidate alike: each candidate's median time (and the
 * middle half of its times), and its median ratio to `baseline` taken round by round (a paired comparison: a slow
 * moment slows both sides of a ratio). A candidate is its arguments, or `{ args, before }` where `before()` runs
 * ahead of each of its runs, untimed (e.g. emptying a cache).
 */
export function alternate(candidates, runs, env) {
  const list = Object.entries(candidates).map(([name, c]) => [name, Array.isArray(c) ? { args: c } : c]);
  const timed = ({ args, before }) => {
    before?.();
    return wallMs(args, env);
  };
  const times = Object.fromEntries(list.map(([name]) => [name, []]));
  for (let i = 0; i < 3; i++) for (const [, c] of list) timed(c); // warm the caches
  for (let i = 0; i < runs; i++) for (const [name, c] of list) times[name].push(timed(c));
  const medians = Object.fromEntries(Object.entries(times).map(([name, ms]) => [name, median(ms)]));
  const spreads = Object.fromEntries(Object.entries(times).map(([name, ms]) => [name, spread(ms)]));
  const ratios = Object.fromEntries(
    Object.entries(times).map(([name, ms]) => [
      name,
      median(ms.map((value, round) => value / times.baseline[round])),
    ]),
  );
  return { medians, spreads, ratios };
}

/** Runs the CLI to completion: counts its stdout lines, measures wall time and peak RSS. */
export function runCli(args, env) {
  const rssFile = join(tempDir('clinic-rss-'), 'rss');
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', RSS, BIN, ...args], {
      env: { ...env, RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let lines = 0;
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      for (const byte of chunk) if (byte === 10) lines++;
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const rssMiB = Number(readFileSync(rssFile, 'utf8')) / 1024;
      resolve({ code, lines, ms, rssMiB, stderr });
    });
  });
}

/** `clinic sandbox start` as its own process (so its memory is not the CLI's); resolves with its ready line. */
export async function sandboxProcess(args, env) {
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', 'start', '--port', '0', '--no-write-profile', ...args],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code})`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  return { ready: JSON.parse(line), stop: () => child.kill('SIGTERM') };
}

/**
 * A config under `home` whose default profile points at `ready` and holds its token in a file (no keychain).
 * Asynchronous: the sandbox may live in this very process and must go on answering.
 */
export async function signIn(home, ready, tenant = '1') {
  const env = cleanEnv(home);
  const clinic = (args, input = '') =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`clinic ${args[0]}: ${stderr}`)),
      );
      child.stdin.end(input);
    });
  await clinic(['config', 'set', 'base_url', ready.base_url]);
  await clinic(['config', 'set', 'tenant', tenant]);
  await clinic(['login', '--with-token', '--insecure-storage'], ready.token);
  return env;
}
