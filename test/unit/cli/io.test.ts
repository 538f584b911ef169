// The terminal layer: progress only on a terminal that has a width; prompts only when input is allowed.
import { PassThrough, Writable } from 'node:stream';
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

  it('draws no spinner where the terminal cannot redraw a line (TERM=dumb)', async () => {
    const s = streams({ isTTY: true, columns: 80 });
    const io = new IO(s, { colourAllowed: false, inputAllowed: true, spinners: false });
    const progress = await io.progress('working');
    progress.stop();
    expect(s.stderr.read()).toBeNull();
  });

  it('draws no spinner when stdout is a pipe whose reader may print on this terminal (| jq), one into a file', async () => {
    for (const [isPipe, drawn] of [
      [true, false],
      [false, true],
    ] as const) {
      const s = streams({ isTTY: true, columns: 80 });
      const direct = { isTTY: false, isPipe, write: () => false };
      const progress = await new IO({ ...s, direct }, { colourAllowed: false, inputAllowed: true }).progress(
        'working',
      );
      progress.stop();
      expect(s.stderr.read() !== null, `isPipe ${isPipe}`).toBe(drawn);
    }
  });

  it('draws a spinner on a terminal with a width', async () => {
    const s = streams({ isTTY: true, columns: 80 });
    const progress = await new IO(s, { colourAllowed: false, inputAllowed: true }).progress('working');
    progress.stop();
    expect(String(s.stderr.read())).toContain('working');
  });
});

describe('data on the terminal a spinner is drawn on', () => {
  /** stdout and stderr on one terminal: every write and cursor move, in order. */
  function oneTerminal() {
    const log: string[] = [];
    const end = (name: string) =>
      Object.assign(
        new Writable({
          write(chunk, _, done) {
            log.push(`${name}:${String(chunk)}`);
            done();
          },
        }),
        {
          isTTY: true,
          columns: 80,
          cursorTo: () => log.push(`${name}:cursorTo`) > 0,
          clearLine: () => log.push(`${name}:clearLine`) > 0,
          moveCursor: () => log.push(`${name}:moveCursor`) > 0,
        },
      );
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    return { log, streams: { stdin, stdout: end('out'), stderr: end('err') } };
  }
  const lastSpinnerFrame = (log: string[], before: number) =>
    log.slice(0, before).findLastIndex((entry) => entry.startsWith('err:') && entry.includes('fetching'));

  it("clears the spinner's line before whole lines of data, and lets it draw again below them", async () => {
    const { log, streams } = oneTerminal();
    const io = new IO(streams, { colourAllowed: false, inputAllowed: false });
    const progress = await io.progress('fetching customers…');
    for (const row of ['id,name\r\n', '1,Ada\r\n']) {
      await io.write(row);
      const at = log.indexOf(`out:${row}`);
      const frame = lastSpinnerFrame(log, at);
      expect(frame).toBeGreaterThanOrEqual(0);
      // Between the spinner's last frame and the data: its line cleared.
      expect(log.slice(frame, at)).toContain('err:clearLine');
      await new Promise((resolve) => setTimeout(resolve, 250)); // a frame or two of the spinner
      expect(lastSpinnerFrame(log, log.length)).toBeGreaterThan(at);
    }
    progress.stop();
  });

  it('stops the spinner for good before a part of a line, which its next frame would erase', async () => {
    const { log, streams } = oneTerminal();
    const io = new IO(streams, { colourAllowed: false, inputAllowed: false });
    const progress = await io.progress('fetching customers…');
    await io.write('[');
    const at = log.indexOf('out:[');
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(lastSpinnerFrame(log, log.length)).toBeLessThan(at);
    progress.update('fetching more…');
    progress.stop();
  });

  it('leaves a spinner alone when the data goes into a pipe', async () => {
    const { log, streams } = oneTerminal();
    streams.stdout.isTTY = false;
    const io = new IO(streams, { colourAllowed: false, inputAllowed: false });
    const progress = await io.progress('fetching customers…');
    await io.write('{"id":1}\n');
    const at = log.indexOf('out:{"id":1}\n');
    expect(log.slice(lastSpinnerFrame(log, at), at)).not.toContain('err:clearLine');
    progress.stop();
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

  it('is COLUMNS for a table into a file or a pipe, before the width of the terminal stderr is on', () => {
    const into = (columns?: number, stderr: object = { isTTY: false }) =>
      new IO(
        {
          stdin: new PassThrough(),
          stdout: Object.assign(new PassThrough(), { isTTY: false }),
          stderr: Object.assign(new PassThrough(), stderr),
        },
        { colourAllowed: false, inputAllowed: true, columns },
      ).columns;
    expect(into(60)).toBe(60);
    expect(into(60, { isTTY: true, columns: 100 })).toBe(60);
    expect(into(undefined, { isTTY: true, columns: 100 })).toBe(100);
    expect(into()).toBe(120);
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
