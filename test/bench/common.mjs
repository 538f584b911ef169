// Shared helpers of the benchmarks: clean environments, medians, a CLI run with its peak RSS, sandboxes.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { processCpuMs } from './proc-cpu.cjs';

export const BIN = fileURLToPath(new URL('../../bin/clinic.js', import.meta.url));
const RSS = fileURLToPath(new URL('./report-rss.cjs', import.meta.url));

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** A figure's median with its spread: `median (min–max)`, each with `digits` decimals. */
export const spread = (values, digits = 2) => {
  const f = (v) => v.toFixed(digits);
  return `${f(median(values))} (${f(Math.min(...values))}–${f(Math.max(...values))})`;
};
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const tempDir = (prefix) => mkdtempSync(join(tmpdir(), prefix));

/**
 * What a user's shell gives Node, and nothing more: a variable such as NODE_EXTRA_CA_CERTS adds the same tens of
 * milliseconds to every start and would flatter every ratio. HOME is a fresh folder, so the config is under it.
 */
export function cleanEnv(home, extra = {}) {
  return { HOME: home, PATH: '/usr/bin:/bin', ...extra };
}

/** Wall time of one run (of Node, or of another `file`), in ms. */
export function wallMs(args, env, file = process.execPath) {
  const start = process.hrtime.bigint();
  execFileSync(file, args, { env, stdio: 'ignore' });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Alternating runs, so drift in the machine's load hits every candidate alike: each candidate's median time (and all
 * its times), and its median ratio to `baseline` taken round by round (a paired comparison: a slow
 * moment slows both sides of a ratio). A candidate is Node's arguments, or `{ args, before, file }` where `before()`
 * runs ahead of each of its runs, untimed (e.g. emptying a cache), and `file` is run instead of Node.
 */
export function alternate(candidates, runs, env) {
  const list = Object.entries(candidates).map(([name, c]) => [name, Array.isArray(c) ? { args: c } : c]);
  const timed = ({ args, before, file }) => {
    before?.();
    return wallMs(args, env, file);
  };
  const times = Object.fromEntries(list.map(([name]) => [name, []]));
  for (let i = 0; i < 3; i++) for (const [, c] of list) timed(c); // warm the caches
  for (let i = 0; i < runs; i++) for (const [name, c] of list) times[name].push(timed(c));
  const medians = Object.fromEntries(Object.entries(times).map(([name, ms]) => [name, median(ms)]));
  const perRound = Object.fromEntries(
    Object.entries(times).map(([name, ms]) => [
      name,
      ms.map((value, round) => value / times.baseline[round]),
    ]),
  );
  const ratios = Object.fromEntries(Object.entries(perRound).map(([name, list]) => [name, median(list)]));
  return { medians, ratios, times, perRound };
}

/**
 * Runs the CLI to completion: counts its stdout lines, measures wall time, peak RSS, CPU, minor page faults, and the
 * CPU of the reader of its stdout.
 */
export function runCli(args, env, nodeArgs = []) {
  return runNode([...nodeArgs, BIN, ...args], env);
}

/**
 * What reads a run's stdout: `wc -l`, which counts the lines for next to no CPU, as a file or a quick consumer would
 * take them. A reader in this process (Node, a callback per chunk) took 0.3 s of CPU from the 2 cores an export of
 * 100,000 records shares with the sandbox: a quarter of a core taken from the runs it measured, more from those that
 * use both cores. The shell then prints its own /proc stat, whose children's times are wc's.
 */
const READER = 'wc -l; cat /proc/$$/stat 2>/dev/null';

/** The reader's CPU time in ms from the stat line READER prints (cutime + cstime), NaN without one. */
function readerCpuMs(stat) {
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (!fields) return Number.NaN;
  // After the command's name: state is field 3, cutime 16 and cstime 17, in clock ticks (100 a second on Linux).
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

/** Runs a Node script to completion, as runCli does the CLI. */
export function runNode(args, env) {
  const rssFile = join(tempDir('clinic-rss-'), 'rss');
  return new Promise((resolve, reject) => {
    const reader = spawn('sh', ['-c', READER], { stdio: ['pipe', 'pipe', 'inherit'] });
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--require', RSS, ...args], {
      env: { ...env, RSS_FILE: rssFile },
      stdio: ['ignore', reader.stdin, 'pipe'],
    });
    reader.stdin.destroy(); // the run holds the pipe's only writing end: its exit is the reader's end of input
    let counted = '';
    let stderr = '';
    let code;
    reader.stdout.on('data', (chunk) => (counted += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    reader.on('error', reject);
    const exited = new Promise((done) => child.on('close', (status) => done((code = status))));
    reader.on('close', async () => {
      await exited;
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const [rssKiB, cpuUs, mainMs, faults] = readFileSync(rssFile, 'utf8').split(' ').map(Number);
      const [lines, stat] = counted.split('\n');
      resolve({
        code,
        lines: Number(lines.trim()),
        ms,
        rssMiB: rssKiB / 1024,
        cpuMs: cpuUs / 1000,
        mainCpuMs: mainMs,
        faults,
        readerMs: readerCpuMs(stat),
        stderr,
      });
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
  // stop() resolves once the sandbox has exited: it writes its compile cache under HOME as it leaves.
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    ready: JSON.parse(line),
    /** The sandbox's CPU time so far in ms, every thread and its main thread's (undefined where /proc has none). */
    cpuMs: () => processCpuMs(child.pid),
    mainCpuMs: () => processCpuMs(child.pid, child.pid),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
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
