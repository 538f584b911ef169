// Start-up: --version, --help, a noun's and a verb's help, and a real command warm and cold, against `node -e 0`.
// Cold is the first run after an install: the compile cache (under $HOME/.cache/clinic) emptied before each run; for
// a command the build warmed (its cache was made after running it) and for one it did not.
// Then the same real command from the single executable (release/, built here by scripts/package.mjs when missing or
// older than the bundle).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  alternate,
  BIN,
  cleanEnv,
  median,
  runNode,
  sandboxProcess,
  signIn,
  spread,
  tempDir,
} from './common.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The single executable of this build, made first when release/ has none as new as dist/bundle/main.cjs. */
function executable() {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const file = join(ROOT, 'release', `clinic-${version}-${process.platform}-${process.arch}`);
  const bundle = statSync(join(ROOT, 'dist/bundle/main.cjs')).mtimeMs;
  if (!existsSync(file) || statSync(file).mtimeMs < bundle)
    execFileSync(process.execPath, [join(ROOT, 'scripts/package.mjs')], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  return file;
}

/** script(1) of util-linux, which runs a command on a pseudo-terminal of its own; undefined where there is none. */
function scriptCommand() {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return 'script';
  } catch {
    return undefined;
  }
}

/** A run of `command` (no quotes inside) on script(1)'s terminal, 100 columns wide, its typescript thrown away; its exit code is script's (-e), so a failed run fails the bench. */
/**
 * What a page of memory (4 KiB) costs a process the first time it touches it, in µs: a fresh buffer of 16 MiB written
 * a byte a page, less the same writes again, over its pages; the median of 5 processes. (On a virtual machine whose
 * memory its host hands out on first touch it is many times a bare machine's.)
 */
function freshPageMicros() {
  const script = `const pages = 4096, b = Buffer.allocUnsafeSlow(pages * 4096);
const touch = (v) => { const t = process.hrtime.bigint(); for (let i = 0; i < b.length; i += 4096) b[i] = v; return Number(process.hrtime.bigint() - t); };
const first = touch(1), again = touch(2); process.stdout.write(String((first - again) / pages / 1000));`;
  const runs = Array.from({ length: 5 }, () =>
    Number(execFileSync(process.execPath, ['-e', script], { env: cleanEnv(tempDir('clinic-bench-page-')) })),
  );
  return median(runs);
}

/** The median minor page faults (pages first touched) of 5 runs of Node with `args`, counted as it exits. */
async function pagesTouched(args, env) {
  const faults = [];
  for (let i = 0; i < 5; i++) faults.push((await runNode(args, env)).faults);
  return median(faults);
}

const onTerminal = (command) => ({
  file: 'script',
  args: ['-qefc', `stty cols 100 rows 40 2>/dev/null; exec ${command}`, '/dev/null'],
});

export async function startupBench(runs) {
  const file = executable();
  const script = scriptCommand();
  const home = tempDir('clinic-bench-home-');
  // Rate limiting on, as the API has it (every answer carries X-RateLimit-* headers), at a limit no run reaches.
  const sandbox = await sandboxProcess(['--rate-limit', '1000000'], cleanEnv(home));
  try {
    const env = await signIn(home, sandbox.ready);
    const real = [BIN, 'customers', 'get', '1', '-o', 'json'];
    const emptyCache = () => rmSync(join(home, '.cache', 'clinic'), { recursive: true, force: true });
    const { ratios, times, perRound } = alternate(
      {
        baseline: ['-e', '0'],
        version: [BIN, '--version'],
        help: [BIN, '--help'],
        nounHelp: [BIN, 'customers', '--help'],
        verbHelp: [BIN, 'customers', 'list', '--help'],
        real,
        floor: [join(ROOT, 'test/bench/startup-floor.cjs')],
        cold: { args: real, before: emptyCache },
        // A command the build's cache was not made with (scripts/warm-up.mjs): its first run writes its own.
        coldOther: { args: [BIN, 'users', 'get', '1', '-o', 'json'], before: emptyCache },
        executable: { args: real.slice(1), file },
        // What a person at a terminal meets (a table, a record view), through script(1)'s pseudo-terminal, against
        // `node -e 0` through it: the tables, the local times and their zone.
        ...(script
          ? {
              terminalBaseline: onTerminal(`${process.execPath} -e 0`),
              terminalList: onTerminal(`${process.execPath} ${BIN} customers list`),
              terminalGet: onTerminal(`${process.execPath} ${BIN} customers get 1`),
            }
          : {}),
      },
      runs,
      env,
    );
    // Memory first touched: node -e 0, the floor and the warm command, each with the same preload counting its faults.
    const pages = {
      baseline: await pagesTouched(['-e', '0'], env),
      floor: await pagesTouched([join(ROOT, 'test/bench/startup-floor.cjs')], env),
      real: await pagesTouched(real, env),
    };
    const pageUs = freshPageMicros();
    /** An info row of a run on script(1)'s terminal, against `node -e 0` on one, round by round. */
    const terminalRow = (figure, name) => {
      const ratios = times[name].map((ms, round) => ms / times.terminalBaseline[round]);
      return {
        figure,
        value: `${spread(times[name], 1)} ms`,
        baseline: `node -e 0 on script(1)'s terminal: ${spread(times.terminalBaseline, 1)} ms`,
        ratio: median(ratios),
        spread: [Math.min(...ratios), Math.max(...ratios)],
        info: true,
        extra: `${median(ratios).toFixed(2)}× node -e 0 on the same terminal`,
      };
    };
    // Medians, with the spread of the runs (min–max) beside them; the ratio's spread is that of the rounds' ratios.
    const row = (figure, name, target) => ({
      figure,
      value: `${spread(times[name], 1)} ms`,
      baseline: `node -e 0: ${spread(times.baseline, 1)} ms`,
      ratio: ratios[name],
      spread: [Math.min(...perRound[name]), Math.max(...perRound[name])],
      target,
    });
    return [
      row('clinic --version', 'version', 1.15),
      row('clinic --help', 'help', 1.3),
      row('clinic customers --help', 'nounHelp', 1.3),
      row('clinic customers list --help', 'verbHelp', 1.3),
      row(
        'clinic customers get 1 -o json (sandbox with rate-limit headers, stored login), warm',
        'real',
        1.6,
      ),
      {
        ...row(
          'the floor of that command: the same GET by a few lines of node:http (test/bench/startup-floor.cjs)',
          'floor',
        ),
        info: true,
        extra: `${ratios.floor.toFixed(2)}× node -e 0: what Node alone costs to load node:http and ask once`,
      },
      row('the same, first run after an install (compile cache emptied before each run)', 'cold', 2),
      {
        ...row(
          'first run after an install of a command the build did not warm: users get 1 -o json (it writes its own cache)',
          'coldOther',
        ),
        info: true,
        extra: `${ratios.coldOther.toFixed(2)}× node -e 0`,
      },
      row('the same from the single executable (release/; no Node installed needed)', 'executable', 1.5),
      {
        figure:
          'memory the warm command touches first (minor page faults, over node -e 0), and what a first-touched page costs here',
        value: `clinic: +${pages.real - pages.baseline} pages; the floor: +${pages.floor - pages.baseline} pages`,
        baseline: `node -e 0: ${pages.baseline} pages; a first-touched page: ${pageUs.toFixed(1)} µs`,
        info: true,
        extra: `≈ ${(((pages.real - pages.floor) * pageUs) / 1000).toFixed(1)} ms of clinic's ${(median(times.real) - median(times.floor)).toFixed(1)} ms over the floor`,
      },
      ...(script
        ? [
            terminalRow('clinic customers list on a terminal (a table: script(1)), warm', 'terminalList'),
            terminalRow(
              'clinic customers get 1 on a terminal (a record view: script(1)), warm',
              'terminalGet',
            ),
          ]
        : []),
    ];
  } finally {
    await sandbox.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
