// The waits of the HTTP client and of chat tail's forwarding as a person and a script see them: on a terminal a countdown in place, driven by the clock
// the client waits on, cut to the width, erased at the end, lending the spinner's line; elsewhere today's one line.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IO, type IoOptions } from '../../../src/cli/io.js';
import { countdownFrame, waitLine } from '../../../src/cli/countdown.js';
import type { Clock } from '../../../src/core/clock.js';
import { CancelledError } from '../../../src/core/errors.js';
import { Forwarder } from '../../../src/core/realtime/forwarder.js';
import { displayWidth } from '../../../src/cli/output/cells.js';
import type { Wait } from '../../../src/core/watched-sleep.js';
import type { Pacer } from '../../../src/core/http/pacers.js';
import { FAKE_START, fakeClock } from '../../helpers/fake-clock.js';
import { queueReplies, type Reply, testClient } from '../../helpers/mock-api.js';
import { replay } from '../../helpers/screen.js';
import { type FakeAnswer, FakeTransport } from '../../helpers/fake-transport.js';

const ok: Reply = { status: 200, body: { data: { id: 1 } } };
const limited = (seconds: number): Reply => ({ status: 429, headers: { 'retry-after': String(seconds) } });

/**
 * One terminal that stdout and stderr both write on, as a TTY stream does (ora's cursor moves as their escape
 * sequences): every write in order, with the time of `clock` it was made at.
 */
function terminal(clock: Clock, columns = 80) {
  const writes: { at: number; text: string }[] = [];
  const end = () => {
    const stream = new Writable({
      write(chunk, _, done) {
        writes.push({ at: clock.now() - FAKE_START, text: String(chunk) });
        done();
      },
    });
    return Object.assign(stream, {
      isTTY: true,
      columns,
      cursorTo: (x: number) => stream.write(`\x1b[${x + 1}G`),
      clearLine: (dir: number) => stream.write(`\x1b[${dir === 1 ? 0 : dir === -1 ? 1 : 2}K`),
      moveCursor: (dx: number, dy: number) => {
        if (dy < 0) stream.write(`\x1b[${-dy}A`);
        if (dx < 0) stream.write(`\x1b[${-dx}D`);
        return true;
      },
    });
  };
  const streams = { stdin: Object.assign(new PassThrough(), { isTTY: false }), stdout: end(), stderr: end() };
  const text = () => writes.map((w) => w.text).join('');
  return { streams, writes, text, screen: () => replay(text(), columns) };
}

const ioOn = (streams: ConstructorParameters<typeof IO>[0], options: Partial<IoOptions> = {}) =>
  new IO(streams, { colourAllowed: false, inputAllowed: false, ...options });

/** A clock whose sleeps end only when the test moves it (`tick`), so a wait can be watched while it goes on. */
function steppedClock() {
  let now = FAKE_START;
  const sleeping: { until: number; wake: () => void }[] = [];
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const clock: Clock & { tick(ms: number): Promise<void>; settle(): Promise<unknown> } = {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        sleeping.push({ until: now + ms, wake: resolve });
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
    async tick(ms) {
      for (const end = now + ms; now < end;) {
        now = Math.min(end, Math.min(...sleeping.map((s) => s.until), end));
        for (const due of sleeping.filter((s) => s.until <= now)) {
          sleeping.splice(sleeping.indexOf(due), 1);
          due.wake();
        }
        await settle();
      }
    },
    settle,
  };
  return clock;
}

/** A budget that is spent for the given pauses, one per ask, then has room. */
const spentFor = (...pauses: number[]): Pacer => ({
  slot: async () => pauses.shift() ?? 0,
  observe: async () => {},
});

/** Two requests on a terminal (a spinner showing `spinning`, if given) whose budget makes them wait `first`, `second`. */
async function twoWaiting(first: number, second: number, spinning?: string) {
  const clock = steppedClock();
  const term = terminal(clock);
  const io = ioOn(term.streams);
  const progress = spinning === undefined ? undefined : await io.progress(spinning);
  const t = testClient({ clock, pacer: spentFor(first, second), onWait: (wait) => io.showWait(wait) });
  queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [ok, ok]);
  const both = Promise.all([
    t.client.request({ method: 'GET', path: '/v1/customers' }),
    t.client.request({ method: 'GET', path: '/v1/customers' }),
  ]);
  await clock.settle();
  return { clock, term, io, both, progress };
}

describe('a wait on a terminal is a countdown', () => {
  it('draws a frame at each whole second left, on the clock the client sleeps on, then erases the line', async () => {
    const clock = fakeClock();
    const term = terminal(clock);
    const io = ioOn(term.streams);
    const t = testClient({ clock, onWait: (wait) => io.showWait(wait) });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [limited(5), ok]);
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(clock.sleeps).toEqual([1000, 1000, 1000, 1000, 1000]);
    const frame = (s: number) => `\rHTTP 429; retrying in ${s}s (retry 1 of 4; Ctrl-C to stop)\x1b[K`;
    expect(term.writes).toEqual([
      { at: 0, text: frame(5) },
      { at: 1000, text: frame(4) },
      { at: 2000, text: frame(3) },
      { at: 3000, text: frame(2) },
      { at: 4000, text: frame(1) },
      { at: 5000, text: '\r\x1b[K' },
    ]);
    expect(term.screen()).toMatchObject({ rows: [''], row: 0, column: 0 });
  });

  it('counts down a rate-limit window from its whole seconds: the fraction is slept first', async () => {
    const clock = fakeClock();
    const term = terminal(clock);
    const io = ioOn(term.streams);
    const t = testClient({ clock, pacer: spentFor(4300), onWait: (wait) => io.showWait(wait) });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [ok]);
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(clock.sleeps).toEqual([300, 1000, 1000, 1000, 1000]);
    const frame = (s: number) => `\rwaiting ${s}s for the rate-limit window to reset (Ctrl-C to stop)\x1b[K`;
    expect(term.writes).toEqual([
      { at: 0, text: frame(5) },
      { at: 300, text: frame(4) },
      { at: 1300, text: frame(3) },
      { at: 2300, text: frame(2) },
      { at: 3300, text: frame(1) },
      { at: 4300, text: '\r\x1b[K' },
    ]);
  });

  it.each([60, 40, 24])(
    'never runs past a terminal of %i columns: the hint goes first, then the text is cut',
    async (columns) => {
      const clock = fakeClock();
      const term = terminal(clock, columns);
      const io = ioOn(term.streams);
      const t = testClient({ clock, pacer: spentFor(42_000), onWait: (wait) => io.showWait(wait) });
      queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [ok]);
      await t.client.request({ method: 'GET', path: '/v1/customers' });
      const frames = term.writes.map((w) => w.text).filter((text) => text.includes('waiting'));
      expect(frames).toHaveLength(42);
      const screen = term.screen();
      expect(screen.wrapped).toBe(false);
      expect(screen.widest).toBeLessThanOrEqual(columns - 1); // the last column left free
      expect(frames.join('')).not.toContain('Ctrl-C');
      if (columns === 60) expect(frames[0]).toBe('\rwaiting 42s for the rate-limit window to reset\x1b[K');
      else {
        expect(frames[0]!.startsWith('\rwaiting 42s for the ra')).toBe(true);
        expect(frames[0]!.endsWith('…\x1b[K')).toBe(true);
      }
      expect(screen.rows).toEqual(['']);
    },
  );

  it("follows the terminal's width as it changes (a resized window)", async () => {
    const clock = fakeClock();
    const term = terminal(clock, 120);
    const io = ioOn(term.streams);
    const t = testClient({
      clock,
      pacer: spentFor(3000),
      onWait: (wait) => {
        const watcher = io.showWait(wait)!;
        return {
          left: (ms) => {
            watcher.left(ms);
            term.streams.stderr.columns = 40;
          },
          end: () => watcher.end(),
        };
      },
    });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [ok]);
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(term.writes.map((w) => w.text)).toEqual([
      '\rwaiting 3s for the rate-limit window to reset (Ctrl-C to stop)\x1b[K',
      '\rwaiting 2s for the rate-limit window t…\x1b[K',
      '\rwaiting 1s for the rate-limit window t…\x1b[K',
      '\r\x1b[K',
    ]);
  });

  it("a retry's reason is made safe and cut before the count is: the count and the retry's number stay", () => {
    const wait: Wait = {
      kind: 'retry',
      ms: 8000,
      reason:
        'connection reset while downloading the report "\x1b[2Jfake\nerror: run this" of erasure request 4',
      retry: 4,
      of: 4,
    };
    const frame = countdownFrame(wait, 7200, 60);
    expect(frame).toBe('connection reset while down…; retrying in 8s (retry 4 of 4)');
    expect(frame).toHaveLength(59);
    expect(countdownFrame(wait, 7200, 200)).toBe(
      'connection reset while downloading the report "?[2Jfake error: run this" of erasure request 4; retrying in 8s (retry 4 of 4; Ctrl-C to stop)',
    );
    // Too narrow for the count and a word of the reason: the whole is cut.
    expect(countdownFrame(wait, 7200, 30)).toBe('connection reset while downl…');
  });

  it("lends it the spinner's line: the spinner stops while it counts, and comes back with its latest text", async () => {
    const clock = steppedClock();
    const term = terminal(clock);
    const io = ioOn(term.streams);
    const progress = await io.progress('fetched 10 of 300 customers');
    const t = testClient({ clock, pacer: spentFor(3000), onWait: (wait) => io.showWait(wait) });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [ok]);
    const request = t.client.request({ method: 'GET', path: '/v1/customers' });
    await clock.settle();
    expect(term.screen().rows).toEqual(['waiting 3s for the rate-limit window to reset (Ctrl-C to stop)']);
    const counting = term.writes.length;
    await new Promise((resolve) => setTimeout(resolve, 250)); // three frames of a spinner, were it running
    expect(term.writes.length).toBe(counting);
    progress.update('fetched 20 of 300 customers');
    await clock.tick(1000);
    expect(term.screen().rows).toEqual(['waiting 2s for the rate-limit window to reset (Ctrl-C to stop)']);
    await clock.tick(2000);
    await request;
    expect(term.screen().rows).toEqual([expect.stringMatching(/^\S fetched 20 of 300 customers$/)]);
    progress.stop();
    expect(term.screen()).toMatchObject({ rows: [''], column: 0, wrapped: false });
    // ora hid the cursor while it spun; it is shown again.
    expect(term.text().lastIndexOf('\x1b[?25h')).toBeGreaterThan(term.text().lastIndexOf('\x1b[?25l'));
  });

  it('a spinner stopped while the countdown has its line does not come back', async () => {
    const clock = steppedClock();
    const term = terminal(clock);
    const io = ioOn(term.streams);
    const progress = await io.progress('fetching customers…');
    const t = testClient({ clock, pacer: spentFor(2000), onWait: (wait) => io.showWait(wait) });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [ok]);
    const request = t.client.request({ method: 'GET', path: '/v1/customers' });
    await clock.settle();
    progress.stop();
    await clock.tick(2000);
    await request;
    expect(term.screen().rows).toEqual(['']);
  });

  it('a line told meanwhile goes above it; whole lines of data too; after a part of a line it waits for the line to end', async () => {
    const clock = steppedClock();
    const term = terminal(clock);
    const io = ioOn(term.streams);
    const t = testClient({ clock, pacer: spentFor(4000), onWait: (wait) => io.showWait(wait) });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [ok]);
    const request = t.client.request({ method: 'GET', path: '/v1/customers' });
    await clock.settle();
    const shown = (s: number) => `waiting ${s}s for the rate-limit window to reset (Ctrl-C to stop)`;
    io.alert('warning: a note');
    expect(term.screen().rows).toEqual(['warning: a note', shown(4)]);
    await io.write('{"id":1}\n');
    expect(term.screen().rows).toEqual(['warning: a note', '{"id":1}', shown(4)]);
    await io.write('[');
    await clock.tick(1000);
    expect(term.screen().rows).toEqual(['warning: a note', '{"id":1}', '[']);
    await io.write('{"id":2}]\n');
    expect(term.screen().rows).toEqual(['warning: a note', '{"id":1}', '[{"id":2}]', shown(3)]);
    await clock.tick(3000);
    await request;
    expect(term.screen()).toMatchObject({
      rows: ['warning: a note', '{"id":1}', '[{"id":2}]', ''],
      column: 0,
      wrapped: false,
    });
  });

  it('several waits at once (requests in flight) share the line: it shows the one that ends last', async () => {
    const { clock, term, both } = await twoWaiting(2000, 5000);
    expect(term.screen().rows).toEqual(['waiting 5s for the rate-limit window to reset (Ctrl-C to stop)']);
    await clock.tick(2000);
    expect(term.screen().rows).toEqual(['waiting 3s for the rate-limit window to reset (Ctrl-C to stop)']);
    await clock.tick(3000);
    await both;
    expect(term.screen().rows).toEqual(['']);
  });

  it('Ctrl-C stops it at once: the request is cancelled and the line erased', async () => {
    const clock = steppedClock();
    const term = terminal(clock);
    const io = ioOn(term.streams);
    const interrupt = new AbortController();
    const t = testClient({
      clock,
      signal: interrupt.signal,
      pacer: spentFor(30_000),
      onWait: (wait) => io.showWait(wait),
    });
    const request = t.client.request({ method: 'GET', path: '/v1/customers' });
    await clock.settle();
    await clock.tick(1000);
    expect(term.screen().rows).toEqual(['waiting 29s for the rate-limit window to reset (Ctrl-C to stop)']);
    interrupt.abort();
    await expect(request).rejects.toBeInstanceOf(CancelledError);
    expect(term.screen()).toMatchObject({ rows: [''], column: 0 });
  });

  it('a wait whose turn comes after Ctrl-C is not told, as a countdown or as a line (1.5 s: a line)', async () => {
    for (const pause of [1500, 4000]) {
      const clock = steppedClock();
      const term = terminal(clock);
      const io = ioOn(term.streams);
      const interrupt = new AbortController();
      // The budget answers once Ctrl-C was typed (its file's lock was busy meanwhile).
      let answer!: (pause: number) => void;
      const pacer: Pacer = {
        slot: () => new Promise<number>((resolve) => (answer = resolve)),
        observe: async () => {},
      };
      const waits: Wait[] = [];
      const t = testClient({
        clock,
        signal: interrupt.signal,
        pacer,
        onWait: (wait) => (waits.push(wait), io.showWait(wait)),
      });
      const request = t.client.request({ method: 'GET', path: '/v1/customers' });
      await clock.settle();
      interrupt.abort();
      answer(pause);
      await expect(request).rejects.toBeInstanceOf(CancelledError);
      expect(waits).toEqual([]);
      expect(term.writes).toEqual([]);
    }
  });

  it("the run's end (its error told next) erases the line for good: the waits still going draw nothing more", async () => {
    const { clock, term, io, both, progress } = await twoWaiting(5000, 3000, 'fetched 5 of 15 customers');
    expect(term.screen().rows).toEqual(['waiting 5s for the rate-limit window to reset (Ctrl-C to stop)']);
    io.stopDrawing();
    expect(term.screen()).toMatchObject({ rows: [''], column: 0 });
    const after = term.writes.length;
    await clock.tick(1000);
    await clock.tick(4000);
    await both;
    // No frame, no spinner coming back, nothing for a late wait or a new spinner.
    expect(io.showWait({ kind: 'window', ms: 1500, again: false })).toBeUndefined();
    await (await io.progress('fetching…')).stop();
    progress?.update('fetched 15 of 15 customers');
    await new Promise((resolve) => setTimeout(resolve, 250)); // three frames of a spinner, were one running
    expect(term.writes.slice(after)).toEqual([]);
    expect(term.text().lastIndexOf('\x1b[?25h')).toBeGreaterThanOrEqual(term.text().lastIndexOf('\x1b[?25l'));
  });
});

describe('after Ctrl-C, where the error starts', () => {
  it('on the line of a spinner or a countdown drawn when it came (erased, its ^C with it); elsewhere below the ^C', async () => {
    const cases: [string, (io: IO, clock: ReturnType<typeof steppedClock>) => Promise<unknown>, string][] = [
      ['a spinner', (io) => io.progress('fetching customers…'), '\r\x1b[K'],
      [
        'a countdown',
        async (io, clock) => {
          const t = testClient({ clock, pacer: spentFor(5000), onWait: (wait) => io.showWait(wait) });
          void t.client.request({ method: 'GET', path: '/v1/customers' }).catch(() => undefined);
          await clock.settle();
        },
        '\r\x1b[K',
      ],
      ['nothing drawn', async () => undefined, '\n'],
    ];
    for (const [what, draw, expected] of cases) {
      const clock = steppedClock();
      const term = terminal(clock);
      const interrupt = new AbortController();
      const io = ioOn(term.streams, { interrupt: interrupt.signal });
      await draw(io, clock);
      interrupt.abort();
      io.stopDrawing();
      expect(io.afterCtrlC(), what).toBe(expected);
    }
    // A terminal that cannot redraw a line (TERM=dumb) draws nothing to erase.
    const interrupt = new AbortController();
    const dumb = ioOn(terminal(steppedClock()).streams, { interrupt: interrupt.signal, spinners: false });
    await dumb.progress('fetching customers…');
    interrupt.abort();
    expect(dumb.afterCtrlC()).toBe('\n');
  });
});

describe('elsewhere, the one line of before', () => {
  /** stderr as a pipe or a file: what it was written, all of it. */
  function piped() {
    const stderr = Object.assign(new PassThrough(), { isTTY: false });
    const streams = { stdin: new PassThrough(), stdout: new PassThrough(), stderr };
    return { streams, written: () => String(stderr.read() ?? '') };
  }

  it('into a pipe: a line per wait, as it always was; a window told once; one sleep each', async () => {
    const clock = fakeClock();
    const { streams, written } = piped();
    const io = ioOn(streams);
    const t = testClient({ clock, pacer: spentFor(42_000, 1500, 0), onWait: (wait) => io.showWait(wait) });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [limited(5), { status: 503 }, ok]);
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(written()).toBe(
      'waiting 42s for the rate-limit window to reset\n' +
        'HTTP 429; retrying in 5s (retry 1 of 4)\n' +
        'HTTP 503; retrying in 2s (retry 2 of 4)\n',
    );
    expect(clock.sleeps).toEqual([42_000, 1500, 5000, 2000]);
  });

  it.each([
    ['TERM=dumb', { spinners: false }, 80, undefined],
    ['a terminal that reports no width', {}, 0, undefined],
    ['stdout a pipe whose reader prints on this terminal (| jq)', {}, 80, true],
  ])('%s: the line, no carriage return, no escape sequence', async (_, options, columns, isPipe) => {
    const clock = fakeClock();
    const term = terminal(clock, columns);
    term.streams.stdout.isTTY = false;
    const direct = isPipe ? { isTTY: false, isPipe, write: () => false } : undefined;
    const io = ioOn({ ...term.streams, direct }, options);
    const t = testClient({ clock, pacer: spentFor(42_000), onWait: (wait) => io.showWait(wait) });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [ok]);
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(term.text()).toBe('waiting 42s for the rate-limit window to reset\n');
  });

  it('a wait under 2 s on a terminal: its line, as before (a countdown from 1 would be gone as soon as read)', async () => {
    const clock = fakeClock();
    const term = terminal(clock);
    const io = ioOn(term.streams);
    const t = testClient({ clock, onWait: (wait) => io.showWait(wait) });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [{ status: 503 }, ok]);
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(term.text()).toBe('HTTP 503; retrying in 1s (retry 1 of 4)\n');
  });

  it('--quiet: nothing, on a terminal or not', async () => {
    const clock = fakeClock();
    const term = terminal(clock);
    const io = ioOn(term.streams, { quiet: true });
    const t = testClient({ clock, pacer: spentFor(42_000), onWait: (wait) => io.showWait(wait) });
    queueReplies(t.transport, t.seen, 'GET', '/api/v1/customers', [limited(5), ok]);
    await t.client.request({ method: 'GET', path: '/v1/customers' });
    expect(term.text()).toBe('');
    expect(clock.sleeps).toEqual([42_000, 5000]);
  });

  it('the lines keep their words: scripts parse them', () => {
    expect(waitLine({ kind: 'window', ms: 41_200, again: false })).toBe(
      'waiting 42s for the rate-limit window to reset',
    );
    expect(waitLine({ kind: 'retry', ms: 2500, reason: 'timed out', retry: 2, of: 4 })).toBe(
      'timed out; retrying in 2.5s (retry 2 of 4)',
    );
  });
});

describe("chat tail --forward-to: an event tried again counts down as the client's waits do", () => {
  const ID = 'ChatLogCreated.1.2.7';
  const forwarderOn = (io: IO, clock: Clock, answers: FakeAnswer[]) => {
    const transport = new FakeTransport();
    for (const answer of answers) transport.on('POST', '/hook', answer);
    return new Forwarder({
      transport,
      url: new URL('http://127.0.0.1:8080/hook'),
      secret: 'whsec_test',
      clock,
      userAgent: 'clinic/test',
      timeoutMs: 5000,
      retrying: (wait) => io.showWait(wait),
      refused: () => undefined,
    });
  };
  const unavailable: FakeAnswer = { status: 503, headers: { 'retry-after': '4' } };

  it('on a terminal: a frame each second left, then the line erased; in a pipe: the line it always was', async () => {
    const clock = fakeClock();
    const term = terminal(clock, 100);
    const sut = forwarderOn(ioOn(term.streams), clock, [unavailable, { status: 204 }]);
    expect(await sut.forward(ID, '{}', new AbortController().signal)).toBe('accepted');
    const frame = (s: number) =>
      `\r${ID}: the endpoint answered 503; trying again in ${s}s (Ctrl-C to stop)\x1b[K`;
    expect(term.writes).toEqual([
      { at: 0, text: frame(4) },
      { at: 1000, text: frame(3) },
      { at: 2000, text: frame(2) },
      { at: 3000, text: frame(1) },
      { at: 4000, text: '\r\x1b[K' },
    ]);
    const piped = terminal(fakeClock());
    const stderr = Object.assign(piped.streams.stderr, { isTTY: false });
    const inPipe = forwarderOn(ioOn({ ...piped.streams, stderr }), fakeClock(), [
      unavailable,
      { status: 204 },
    ]);
    await inPipe.forward(ID, '{}', new AbortController().signal);
    expect(piped.text()).toBe(`${ID}: the endpoint answered 503; trying again in 4s\n`);
  });

  it('fits 60, 80 and 120 columns: the reason is cut before the count', () => {
    const wait: Wait = {
      kind: 'forward',
      ms: 30_000,
      reason: `${ID}: cannot reach https://hooks.example.com/clinic/inbound: connection refused`,
    };
    for (const width of [60, 80, 120]) {
      const frame = countdownFrame(wait, 29_500, width);
      expect(displayWidth(frame), `${width}`).toBeLessThanOrEqual(width - 1);
      expect(frame, `${width}`).toMatch(/; trying again in 30s( \(Ctrl-C to stop\))?$/);
    }
    // The hint goes first, where the whole does not fit.
    expect(countdownFrame(wait, 29_500, 120)).not.toContain('Ctrl-C');
    expect(countdownFrame(wait, 29_500, 160)).toMatch(/; trying again in 30s \(Ctrl-C to stop\)$/);
  });
});
