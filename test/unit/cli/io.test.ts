// The terminal layer: progress only on a terminal that has a width; prompts only when input is allowed.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IO } from '../../../src/cli/io.js';
import { spawnSync } from 'node:child_process';
import { openSync } from 'node:fs';
import { BIN } from '../../helpers/cli.js';

function streams(stderr: { isTTY?: boolean; columns?: number }, stdinTTY = false) {
  // What a TTY write stream offers ora besides write().
  const tty = { cursorTo: () => true, clearLine: () => true, moveCursor: () => true };
  const err = Object.assign(new PassThrough(), tty, stderr);
  const stdin = Object.assign(new PassThrough(), { isTTY: stdinTTY });
  return { stdin, stdout: new PassThrough(), stderr: err };
}

describe('IO.progress', () => {
  it.each([
    ['when stderr is not a terminal', { isTTY: false }],
    ['on a terminal that reports no width (ora would redraw forever)', { isTTY: true, columns: 0 }],
  ])('shows nothing %s', async (_, stderr) => {
    const s = streams(stderr);
    const progress = await new IO(s, { colourAllowed: true, inputAllowed: true }).progress('working');
    progress.update('more');
    progress.stop();
    expect(s.stderr.read()).toBeNull();
  });

  it('draws a spinner on a terminal with a width', async () => {
    const s = streams({ isTTY: true, columns: 80 });
    const progress = await new IO(s, { colourAllowed: false, inputAllowed: true }).progress('working');
    progress.stop();
    expect(String(s.stderr.read())).toContain('working');
  });
});

describe('IO.columns', () => {
  const io = (stdout: object, stderr: object) =>
    new IO(
      {
        stdin: new PassThrough(),
        stdout: Object.assign(new PassThrough(), stdout),
        stderr: Object.assign(new PassThrough(), stderr),
      },
      { colourAllowed: false, inputAllowed: true },
    );

  it("is stdout's terminal width, else stderr's when stdout is a pipe (| less), else 120", () => {
    expect(io({ isTTY: true, columns: 80 }, { isTTY: true, columns: 60 }).columns).toBe(80);
    expect(io({ isTTY: false }, { isTTY: true, columns: 60 }).columns).toBe(60);
    expect(io({ isTTY: false }, { isTTY: false }).columns).toBe(120);
    // A terminal of no reported size (a pty made without one) is not a pipe: stderr's width is not its.
    expect(io({ isTTY: true, columns: 0 }, { isTTY: true, columns: 60 }).columns).toBe(120);
  });
});

describe('IO.canPrompt', () => {
  it('needs a terminal on stdin and stderr, and --no-input not given', () => {
    const tty = streams({ isTTY: true, columns: 80 }, true);
    expect(new IO(tty, { colourAllowed: true, inputAllowed: true }).canPrompt).toBe(true);
    expect(new IO(tty, { colourAllowed: true, inputAllowed: false }).canPrompt).toBe(false);
    expect(
      new IO(streams({ isTTY: true }, false), { colourAllowed: true, inputAllowed: true }).canPrompt,
    ).toBe(false);
  });
});

it('a full disk on stdout is one error line and exit 1, no stack trace', () => {
  const result = spawnSync(process.execPath, [BIN, '--version', '--help'], {
    stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'],
    encoding: 'utf8',
  });
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/^error: cannot write the output \(ENOSPC\)\n$/);
});
