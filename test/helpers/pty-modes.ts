// A command on a real pty whose terminal modes a test can read: while it runs (`stty -a` on the pty's device, from
// outside) and once it has ended (by the shell it ran in). Ctrl-C is SIGINT only while the terminal keeps `isig`; a
// spinner or prompt library that turns it off (raw mode) leaves Ctrl-C typed into the void.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach } from 'vitest';
import { BIN, baseEnv, type TestWorld } from './cli.js';
import { onPty, type PtyOptions, type PtySession } from './pty.js';

export interface PtyModes {
  /** Ctrl-C, Ctrl-\ and Ctrl-Z are signals (off in raw mode). */
  isig: boolean;
  /** Line editing: input reaches the program a line at a time (off in raw mode). */
  icanon: boolean;
  echo: boolean;
}

/** The modes in `stty -a`'s words (`isig` or `-isig`...). */
export function parseModes(stty: string): PtyModes {
  const words = new Set(stty.split(/[\s;]+/));
  const flag = (name: string) => {
    if (words.has(name)) return true;
    if (words.has(`-${name}`)) return false;
    throw new Error(`stty -a says nothing of ${name}:\n${stty}`);
  };
  return { isig: flag('isig'), icanon: flag('icanon'), echo: flag('echo') };
}

export interface WatchedPty extends PtySession {
  /** The pty's modes now, read on its device as the command runs. */
  modes(): Promise<PtyModes>;
  /** The modes the command left the pty in, read by its shell after it ended (call once `exited` has resolved). */
  modesAfter(): Promise<PtyModes>;
}

export interface WatchedPtyOptions extends PtyOptions {
  /** Where the command's stdout goes instead of the pty (stderr, spinners and prompts stay on it). */
  stdoutFile?: string;
}

/**
 * Starts `argv` on a pty (onPty) through a shell that notes the pty's device before it starts the command and the
 * modes after it ends; the shell outlives a Ctrl-C (a trap; the command gets SIGINT as usual) and exits with the
 * command's code. `dir` holds the notes.
 */
export function onWatchedPty(argv: string[], dir: string, options: WatchedPtyOptions = {}): WatchedPty {
  const device = join(dir, 'pty-device');
  const after = join(dir, 'pty-modes-after');
  const run = options.stdoutFile === undefined ? '"$@"' : '"$@" > "$PTY_STDOUT"';
  const shell = `trap : INT; tty > "$PTY_DEVICE"; ${run}; code=$?; stty -a > "$PTY_AFTER"; exit $code`;
  const session = onPty(['sh', '-c', shell, 'sh', ...argv], {
    ...options,
    env: { ...options.env, PTY_DEVICE: device, PTY_AFTER: after, PTY_STDOUT: options.stdoutFile },
  });
  return Object.assign(session, {
    async modes() {
      // The device is noted before the command starts, so once it has shown anything the note is there.
      const path = (await readFile(device, 'utf8')).trim();
      const { stdout } = await promisify(execFile)('stty', ['-a', '-F', path]);
      return parseModes(stdout);
    },
    async modesAfter() {
      return parseModes(await readFile(after, 'utf8'));
    },
  });
}

/**
 * For a test file: starts `clinic --profile sandbox ARGS` of `world` on a watched pty (clinicOnPty, notes in `dir`),
 * and kills what a failed test left running after each test.
 */
export function usePtyClinic(world: TestWorld, dir: { readonly path: string }) {
  const started: WatchedPty[] = [];
  afterEach(() => {
    for (const session of started.splice(0)) session.kill();
  });
  return (args: string[], options?: WatchedPtyOptions): WatchedPty => {
    const session = clinicOnPty(world, dir.path, args, options);
    started.push(session);
    return session;
  };
}

/** `clinic --profile sandbox ARGS` of a test world on a watched pty of 100 columns; `dir` holds the notes. */
export function clinicOnPty(
  world: TestWorld,
  dir: string,
  args: string[],
  options: WatchedPtyOptions = {},
): WatchedPty {
  const argv = [process.execPath, BIN, '--profile', 'sandbox', ...args];
  return onWatchedPty(argv, dir, {
    cols: 100,
    ...options,
    env: { ...baseEnv(world.configDir), ...options.env },
  });
}
