// bin/clinic.js's stdout without a stream: a small output is written at once with writeSync; past 16 KiB in all,
// or once the stream exists, the stream takes over. A full non-blocking pipe hands the rest to the stream.
import { spawnSync } from 'node:child_process';
import { openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IO } from '../../../src/cli/io.js';
import { BIN } from '../../helpers/cli.js';
import { tempConfigDir } from '../../helpers/cli.js';

interface Direct {
  isTTY: boolean;
  write(text: string): boolean;
}
const { directStdout } = createRequire(import.meta.url)(BIN) as {
  directStdout(deps: {
    streamMade: () => boolean;
    stream: () => { write(bytes: Uint8Array): unknown };
    writeSync: (fd: number, bytes: Buffer, at: number) => number;
    closed: () => void;
    fail: (error: Error) => void;
    onClosed: (tell: () => void) => void;
  }): Direct & { onClosed(tell: () => void): void };
};

/** A fake fd 1 that takes at most `chunk` bytes a call, and the stream the rest would go to. */
function fake({ chunk = Infinity, errorAfter = Infinity, code = 'EAGAIN' } = {}) {
  const written: Buffer[] = [];
  const streamed: Buffer[] = [];
  const calls = { closed: 0, fail: [] as Error[] };
  let tell: (() => void) | undefined;
  let made = false;
  let total = 0;
  const direct = directStdout({
    streamMade: () => made,
    stream: () => {
      made = true;
      return { write: (bytes) => streamed.push(Buffer.from(bytes)) };
    },
    writeSync: (fd, bytes, at) => {
      expect(fd).toBe(1);
      if (total >= errorAfter) throw Object.assign(new Error(code), { code });
      const n = Math.min(chunk, bytes.length - at, errorAfter - total);
      written.push(Buffer.from(bytes.subarray(at, at + n)));
      total += n;
      return n;
    },
    closed: () => {
      calls.closed++;
      tell?.();
    },
    fail: (e) => calls.fail.push(e),
    onClosed: (told) => (tell = told),
  });
  return {
    direct,
    calls,
    makeStream: () => (made = true),
    written: () => Buffer.concat(written).toString(),
    streamed: () => Buffer.concat(streamed).toString(),
  };
}

describe('directStdout', () => {
  it('writes all of a small text at once, however few bytes each write takes', () => {
    const out = fake({ chunk: 3 });
    expect(out.direct.write('{"name":"Zoë 🦷"}\n')).toBe(true);
    expect(out.direct.write('second\n')).toBe(true);
    expect(out.written()).toBe('{"name":"Zoë 🦷"}\nsecond\n');
  });

  it('counts bytes, not characters, and leaves to the stream whatever would pass 16 KiB in all', () => {
    const out = fake();
    const big = 'é'.repeat(5000); // 10,000 bytes in 5,000 characters
    expect(out.direct.write(big)).toBe(true);
    expect(out.direct.write(big)).toBe(false); // 20,000 bytes in all: the stream's
    expect(out.direct.write('x'.repeat(6000))).toBe(true); // 16,000: still under
    expect(out.written()).toBe(big + 'x'.repeat(6000));
  });

  it('writes nothing once the stream exists (what it holds would come after)', () => {
    const out = fake();
    out.makeStream();
    expect(out.direct.write('late\n')).toBe(false);
    expect(out.written()).toBe('');
  });

  it('hands the rest to the stream when a non-blocking fd 1 is full', () => {
    const out = fake({ errorAfter: 4 });
    expect(out.direct.write('abcdefgh\n')).toBe(true);
    expect(out.written()).toBe('abcd');
    expect(out.streamed()).toBe('efgh\n');
    expect(out.direct.write('next\n')).toBe(false); // the stream exists now: it takes the rest, in order
  });

  it('ends the run quietly on a closed pipe, and fails with the error otherwise', () => {
    const closed = fake({ errorAfter: 0, code: 'EPIPE' });
    closed.direct.write('x\n');
    expect(closed.calls.closed).toBe(1);
    const full = fake({ errorAfter: 0, code: 'ENOSPC' });
    full.direct.write('x\n');
    expect(full.calls.fail.map((e) => (e as NodeJS.ErrnoException).code)).toEqual(['ENOSPC']);
  });

  it('a run that asked to be told of a closed pipe is told once, and what it writes then is dropped', () => {
    const out = fake({ errorAfter: 2, code: 'EPIPE' });
    let told = 0;
    out.direct.onClosed(() => told++);
    expect(out.direct.write('abcd\n')).toBe(true);
    expect(told).toBe(1);
    expect(out.direct.write('more\n')).toBe(true);
    expect(out.written()).toBe('ab');
    expect(out.calls.closed).toBe(1);
  });
});

describe('IO with a direct stdout', () => {
  const io = (direct: Direct, stdout = new PassThrough()) =>
    new IO(
      { stdin: new PassThrough(), stdout, stderr: new PassThrough(), direct },
      { colourAllowed: true, inputAllowed: true },
    );

  it('writes through it while it takes the text, through the stream when it does not', async () => {
    const taken: string[] = [];
    const stdout = new PassThrough();
    const direct = { isTTY: false, write: (text: string) => text.length < 5 && taken.push(text) > 0 };
    await io(direct, stdout).write('abc');
    await io(direct, stdout).write('longer text');
    expect(taken).toEqual(['abc']);
    expect(String(stdout.read())).toBe('longer text');
  });

  it('asks it whether stdout is a terminal, without touching the stream', () => {
    const stdout = new PassThrough();
    const untouched = Object.defineProperty(stdout, 'isTTY', {
      get: () => expect.unreachable('the stream was asked'),
    });
    const direct = { isTTY: false, write: () => true };
    expect(io(direct, untouched).stdoutIsTTY).toBe(false);
    expect(io(direct, untouched).colour).toBe(false);
    expect(io(direct, untouched).columns).toBe(120);
  });
});

it('a full disk under a small output is one error line and exit 1, no stack trace', async () => {
  const result = spawnSync(process.execPath, [BIN, 'config', 'list'], {
    stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'],
    env: { PATH: process.env.PATH, CLINIC_CONFIG_DIR: await tempConfigDir() },
    encoding: 'utf8',
  });
  expect(result.stderr).toMatch(/^error: cannot write the output \(ENOSPC\)\n$/);
  expect(result.status).toBe(1);
});

it('tells a pipe from a file or a device on fd 1 (a spinner is not drawn beside a pipe: its reader may print)', async () => {
  const probe = (stdout: 'pipe' | number) =>
    spawnSync(
      process.execPath,
      [
        '-e',
        `const d = require(${JSON.stringify(BIN)}).directStdout({ streamMade: () => false, stream: () => null,
          writeSync: () => 0, closed: () => {}, fail: () => {}, onClosed: () => {} });
          process.stderr.write(String(d.isPipe));`,
      ],
      { stdio: ['ignore', stdout, 'pipe'], encoding: 'utf8' },
    ).stderr;
  expect(probe('pipe')).toBe('true');
  expect(probe(openSync('/dev/null', 'w'))).toBe('false');
  expect(probe(openSync(`${await tempConfigDir()}-out`, 'w'))).toBe('false');
});
