// The rate-limit budget: what answers teach, when a request may go, and one budget shared by two processes.
import { chown, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SharedPacer } from '../../../src/core/http/pacers.js';
import { withLock } from '../../../src/core/lock.js';
import { combine, learn, takeSlot } from '../../../src/core/http/rate-budget.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { fakeClock } from '../../helpers/fake-clock.js';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const headers = (remaining: number, resetS: number, limit = 10) => ({
  'x-ratelimit-remaining': String(remaining),
  'x-ratelimit-reset': String(resetS),
  'x-ratelimit-limit': String(limit),
});

describe('takeSlot and learn', () => {
  it('goes at once without knowledge, then counts down what the server allows and waits for the reset', () => {
    expect(takeSlot({}, T0)).toEqual({ state: {}, wait: 0 });
    let state = learn({}, headers(2, T0 / 1000 + 30), T0);
    let slot = takeSlot(state, T0);
    expect(slot.wait).toBe(0);
    slot = takeSlot(slot.state, T0);
    expect(slot.wait).toBe(0);
    slot = takeSlot(slot.state, T0 + 1000);
    expect(slot.wait).toBe(29_000 + 50); // the reset, plus a margin for the trip
    state = slot.state;
    // The window is over: a fresh one allows `limit`.
    slot = takeSlot(state, T0 + 30_100);
    expect(slot).toEqual({ state: { limit: 10, remaining: 9, openedAtMs: T0 + 30_100 }, wait: 0 });
  });

  it('never raises the budget of a window: another process may have spent what this one was told', () => {
    const reset = T0 / 1000 + 30;
    const state = learn(learn({}, headers(8, reset), T0), headers(5, reset), T0);
    expect(state.remaining).toBe(5);
    expect(learn(state, headers(7, reset), T0).remaining).toBe(5);
    // An answer from the next window starts from what it says.
    expect(learn(state, headers(9, reset + 30), T0 + 31_000).remaining).toBe(9);
    // Answers without the headers change nothing.
    expect(learn(state, {}, T0)).toBe(state);
  });

  it("corrects for the server's clock only when it is plainly off (its Date has whole seconds)", () => {
    const reset = T0 / 1000 + 30;
    const date = (ms: number) => new Date(ms).toUTCString();
    const close = learn({}, { ...headers(5, reset), date: date(T0 - 900) }, T0);
    expect(close.resetAtMs).toBe(reset * 1000 + 50);
    const off = learn({}, { ...headers(5, reset), date: date(T0 - 10_000) }, T0);
    expect(off.resetAtMs).toBe(reset * 1000 + 10_000 + 50);
  });
});

describe('headers beyond belief', () => {
  it('a reset a year ahead is taken as 120 s ahead; a Date a year off corrects nothing', () => {
    const inAYear = T0 / 1000 + 365 * 86_400;
    expect(learn({}, headers(0, inAYear), T0)).toEqual({ limit: 10, remaining: 0, resetAtMs: T0 + 120_000 });
    const date = new Date(T0 - 365 * 86_400_000).toUTCString();
    const state = learn({}, { ...headers(5, T0 / 1000 + 30), date }, T0);
    expect(state.resetAtMs).toBe(T0 + 30_000 + 50); // no "correction" by a year
  });

  it('a reset further ahead than a Retry-After the CLI waits for (120 s) is taken as 120 s ahead, its count kept', () => {
    // The API's window is a minute: an answer saying the budget is spent for half an hour parks two minutes at most,
    // and sends nothing meanwhile (a server that counts longer windows then says so with a 429).
    const inHalfAnHour = T0 / 1000 + 1800;
    expect(takeSlot(learn({}, headers(0, inHalfAnHour), T0), T0).wait).toBe(120_000);
    expect(takeSlot(learn({}, headers(0, T0 / 1000 + 121), T0), T0).wait).toBe(120_000);
    // What is left is still counted down: 2 go, the third waits.
    let slot = takeSlot(learn({}, headers(2, inHalfAnHour), T0), T0);
    slot = takeSlot(slot.state, T0);
    expect(slot.wait).toBe(0);
    expect(takeSlot(slot.state, T0).wait).toBe(120_000);
    // Up to 120 s ahead the wait is as said.
    expect(takeSlot(learn({}, headers(0, T0 / 1000 + 119), T0), T0).wait).toBe(119_050);
    // A server clock an hour behind ours, with a reset a minute ahead by its clock, is a minute ahead by ours.
    const date = new Date(T0 - 3_600_000).toUTCString();
    const behind = learn({}, { ...headers(0, (T0 - 3_600_000) / 1000 + 60), date }, T0);
    expect(takeSlot(behind, T0).wait).toBe(60_050);
  });

  it('a stored window beyond belief (another version, a bad answer) is dropped, and junk is ignored', () => {
    const stored = { limit: 60, remaining: 0, resetAtMs: T0 + 365 * 86_400_000 };
    expect(takeSlot(stored, T0)).toEqual({ state: { limit: 60 }, wait: 0 });
    const junk = { limit: 'x', remaining: null, resetAtMs: {} } as unknown as Parameters<typeof takeSlot>[0];
    expect(takeSlot(junk, T0).wait).toBe(0);
  });
});

describe('answers that would park every request', () => {
  /** Takes slots from `state` until one goes, as a pacer would: the total wait. */
  const waitedFor = (state: ReturnType<typeof learn>, from: number) => {
    let now = from;
    let slot = takeSlot(state, now);
    while (slot.wait > 0 && now - from < 10 * 60_000) {
      now += slot.wait;
      slot = takeSlot(slot.state, now);
    }
    return now - from;
  };

  it('a limit of 0 with the budget spent waits for the window at most, never without end', () => {
    // A reset already past: the fresh window would allow none, which is not believed.
    expect(waitedFor(learn({}, headers(0, T0 / 1000 - 10, 0), T0), T0)).toBe(0);
    // A reset just ahead: that wait, then on.
    expect(waitedFor(learn({}, headers(0, T0 / 1000 + 2, 0), T0), T0)).toBe(2_050);
  });

  it('a reset that is no number a clock can hold teaches no window', () => {
    for (const reset of [-1e308, 1e308, -1e20])
      expect(waitedFor(learn({}, headers(0, reset), T0), T0)).toBe(0);
  });

  it('a budget spent in a window no answer ever ended is taken to be over a minute after it opened', () => {
    // Ten requests went in a fresh window and no answer came back to say when it ends.
    let state = takeSlot({ limit: 10, remaining: 0, resetAtMs: T0 - 1 }, T0).state;
    for (let i = 0; i < 9; i++) state = takeSlot(state, T0).state;
    expect(takeSlot(state, T0).wait).toBeGreaterThan(0);
    expect(waitedFor(state, T0)).toBeLessThanOrEqual(60_000);
    expect(waitedFor(state, T0)).toBeGreaterThanOrEqual(59_800);
    // A state read back that is spent and says nothing of its window (another version's): a minute from now.
    expect(waitedFor({ limit: 10, remaining: 0 }, T0)).toBeLessThanOrEqual(60_200);
  });
});

describe('combine', () => {
  it('of one window keeps the lower count, of two the newer, and fills in what one view lacks', () => {
    const w = { limit: 60, resetAtMs: T0 + 30_000 };
    expect(combine({ ...w, remaining: 7 }, { ...w, remaining: 4, resetAtMs: T0 + 30_900 }, T0)).toEqual({
      limit: 60,
      remaining: 4,
      resetAtMs: T0 + 30_900,
    });
    const next = { limit: 60, remaining: 59, resetAtMs: T0 + 90_000 };
    expect(combine({ ...w, remaining: 0 }, next, T0)).toEqual(next);
    expect(combine(next, { ...w, remaining: 0 }, T0)).toEqual(next);
    expect(combine({}, { ...w, remaining: 3 }, T0)).toEqual({ ...w, remaining: 3 });
    expect(combine({ limit: 60 }, {}, T0)).toEqual({ limit: 60 });
  });
});

describe('SharedPacer', () => {
  const tmp = useTempDir('clinic-pacer-');
  const minuteEnd = T0 / 1000 + 60;

  /** One request through `pacer`: it goes at once, and its answer leaves `remaining` of 60 this minute. */
  async function sendOne(pacer: SharedPacer, remaining: number) {
    expect(await pacer.slot()).toBe(0);
    await pacer.observe(headers(remaining, minuteEnd, 60));
  }

  /** Two processes of one profile: one file, one clock. */
  function twoPacers(name: string) {
    const file = join(tmp.path, name);
    const clock = fakeClock(T0);
    return [new SharedPacer(file, clock), new SharedPacer(file, clock)] as const;
  }

  it('two processes of one profile together take no more slots per window than the server allows', async () => {
    const [a, b] = twoPacers('sandbox.json');
    // Each has sent one request and seen its answer (limit 10, 8 left after both).
    expect(await a.slot()).toBe(0);
    expect(await b.slot()).toBe(0);
    await a.observe(headers(9, minuteEnd));
    await b.observe(headers(8, minuteEnd));
    let granted = 0;
    for (let i = 0; i < 20; i++) if ((await (i % 2 ? a : b).slot()) === 0) granted++;
    expect(granted).toBe(8);
    expect(await a.slot()).toBeGreaterThan(59_000);
  });

  it('a process that paused with plenty left learns from the file what the others spent meanwhile', async () => {
    const [exporter, poller] = twoPacers('paused.json');
    await sendOne(poller, 59);
    await sendOne(poller, 58); // its second request: counted in the file (58 left)
    // The poller sleeps; the export starts (its answer counts the poller's two) and spends the rest of the window.
    await sendOne(exporter, 57);
    let spent = 0;
    while ((await exporter.slot()) === 0) spent++;
    expect(spent).toBe(57);
    expect(await poller.slot()).toBeGreaterThan(59_000);
  });

  it.each([
    ['a year', 365 * 86_400_000],
    ['an hour', 3_600_000],
  ])('a file poisoned with a window %s long does not park the profile', async (_, ms) => {
    const file = join(tmp.path, 'poisoned.json');
    await writeFile(file, JSON.stringify({ limit: 60, remaining: 0, resetAtMs: T0 + ms }));
    const pacer = new SharedPacer(file, fakeClock(T0));
    await sendOne(pacer, 59);
    expect(await pacer.slot()).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      limit: 60,
      remaining: 58,
      resetAtMs: T0 + 60_050,
    });
  });

  it("a wait for the file's lock, held by another, ends with Ctrl-C: the signal is asked for when the wait begins", async () => {
    const file = join(tmp.path, 'held.json');
    const pacer = new SharedPacer(file, fakeClock(T0));
    await sendOne(pacer, 59); // told: from the second request on, the file is read and written under its lock
    let release!: () => void;
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const other = withLock(file, () => (held(), new Promise<void>((resolve) => (release = resolve))));
    await holding;
    const interrupt = new AbortController();
    let asked = 0;
    const slot = pacer.slot(() => (asked++, interrupt.signal));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toBe(1);
    interrupt.abort(new Error('SIGINT'));
    await expect(slot).rejects.toThrow('SIGINT');
    release();
    await other;
  });

  it('never reads or writes the file through a symbolic link', async () => {
    const victim = join(tmp.path, 'victim');
    await writeFile(victim, 'precious');
    const file = join(tmp.path, 'linked.json');
    await symlink(victim, file);
    const pacer = new SharedPacer(file, fakeClock(T0));
    await sendOne(pacer, 59);
    await expect(pacer.slot()).rejects.toThrow(/ELOOP/);
    expect(await readFile(victim, 'utf8')).toBe('precious');
  });

  it.skipIf(process.getuid?.() !== 0)("refuses a folder of another user's for the file", async () => {
    const theirs = join(tmp.path, 'theirs');
    await mkdir(theirs, { mode: 0o755 });
    await chown(theirs, 65534, 65534);
    const pacer = new SharedPacer(join(theirs, 'sandbox.json'), fakeClock(T0));
    await sendOne(pacer, 59);
    await expect(pacer.slot()).rejects.toThrow(/belongs to another user/);
    expect(await readdir(theirs)).toEqual([]);
  });

  it('a command of one request never touches the file; its second request does', async () => {
    const dir = tmp.path;
    const pacer = new SharedPacer(join(dir, 'one.json'), fakeClock(T0));
    await sendOne(pacer, 50);
    expect(await readdir(dir)).toEqual([]);
    expect(await pacer.slot()).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'one.json'), 'utf8'))).toMatchObject({ remaining: 49 });
  });

  it('a server without rate headers never engages the shared file', async () => {
    const dir = tmp.path;
    const pacer = new SharedPacer(join(dir, 'none.json'), fakeClock(T0));
    await pacer.observe({ date: new Date(T0).toUTCString() });
    for (let i = 0; i < 100; i++) expect(await pacer.slot()).toBe(0);
    expect(await readdir(dir)).toEqual([]);
  });
});
