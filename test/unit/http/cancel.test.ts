// What ends exchanges early is shared by all of them: one timer for every deadline, one listener per signal, and a
// Cancel that reaches the transport whenever it is ended.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Cancel, onAbort, onDeadline } from '../../../src/core/http/transport/cancel.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Waits (up to 5 s) until `done()`; the time it took, in ms. */
async function until(done: () => boolean): Promise<number> {
  const started = performance.now();
  while (!done()) {
    if (performance.now() - started > 5000) throw new Error('never happened');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now() - started;
}

afterEach(() => vi.restoreAllMocks());

/**
 * An exchange that waited on `signal` (its act holding its answer) while `meanwhile` ran, and is over: a weak look at
 * its answer, which nothing of the exchange should keep.
 */
function exchangeOver(signal: AbortSignal, meanwhile: () => void): WeakRef<object> {
  const answer = { text: 'x'.repeat(100_000) };
  const stop = onAbort(signal, () => void answer.text);
  meanwhile();
  stop();
  return new WeakRef(answer);
}

describe('deadlines', () => {
  it('a hundred in flight share one timer, which keeps nothing alive; each expires once, none early', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const expired: number[] = [];
    const started = performance.now();
    const stops = Array.from({ length: 100 }, (_, i) => onDeadline(150, () => expired.push(i)));
    expect(timers).toHaveBeenCalledTimes(1);
    expect((timers.mock.results[0]!.value as NodeJS.Timeout).hasRef()).toBe(false);
    timers.mockRestore();
    stops[7]!(); // over before its deadline
    await until(() => expired.length > 0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    await until(() => expired.length === 99);
    expect(expired).toEqual([...Array(100).keys()].filter((i) => i !== 7));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(expired).toHaveLength(99);
  });

  it('an earlier deadline arms the timer again; a later one waits for the sweep that reaches it', async () => {
    const expired: string[] = [];
    const stopLong = onDeadline(60_000, () => expired.push('long'));
    onDeadline(1000, () => expired.push('middle'));
    onDeadline(30, () => expired.push('short'));
    expect(await until(() => expired.length > 0)).toBeLessThan(900);
    expect(expired).toEqual(['short']);
    await until(() => expired.length > 1);
    expect(expired).toEqual(['short', 'middle']);
    stopLong();
  });

  it('one that throws keeps no other from expiring, nor the timer from arming for the next', async () => {
    const expired: string[] = [];
    const thrown: unknown[] = [];
    // The test runner's own listener would fail the run on the one thrown on purpose: it waits aside meanwhile.
    const runners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', (error) => thrown.push(error));
    try {
      onDeadline(20, () => {
        throw new Error('a bug in one');
      });
      onDeadline(20, () => expired.push('same time'));
      onDeadline(200, () => expired.push('later'));
      await until(() => expired.length === 2);
      expect(expired).toEqual(['same time', 'later']);
      expect(thrown).toHaveLength(1);
    } finally {
      process.removeAllListeners('uncaughtException');
      for (const listener of runners) process.on('uncaughtException', listener);
    }
  });
});

describe('signals', () => {
  it('one listener a signal whatever the number of exchanges; each told once; none left once all are over', async () => {
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, 'addEventListener');
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    const told: number[] = [];
    const stops = Array.from({ length: 50 }, (_, i) => onAbort(controller.signal, () => told.push(i)));
    expect(add).toHaveBeenCalledTimes(1);
    for (const stop of stops.slice(0, 49)) stop();
    expect(remove).not.toHaveBeenCalled();
    stops[49]!();
    stops[49]!(); // twice is harmless
    expect(remove).toHaveBeenCalledTimes(1);
    // Listened to again later: a new listener, and the abort reaches only the exchanges still waiting.
    const later = [
      onAbort(controller.signal, () => told.push(100)),
      onAbort(controller.signal, () => told.push(101)),
    ];
    later[0]!();
    controller.abort();
    await turn();
    expect(told).toEqual([101]);
    expect(add).toHaveBeenCalledTimes(2);
    later[1]!(); // after the abort: nothing to do, nothing thrown
  });

  it("the signal's one listener holds nothing of the exchange that made it, once that one is over", async () => {
    // Made inside onAbort, the listener shared that call's scope, and with it the first exchange's act: its request,
    // its answer and its text stayed alive for as long as any exchange waited on the signal (a long export's run).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
    const controller = new AbortController();
    let second: (() => void) | undefined;
    // Another exchange waits meanwhile, and after: the listener stays, as in an export.
    const held = exchangeOver(
      controller.signal,
      () => (second = onAbort(controller.signal, () => undefined)),
    );
    await turn();
    gc();
    expect(held.deref()).toBeUndefined();
    second!();
  });

  it('exchanges that come and go, four at a time for thousands, leave the young collections nothing to promote', () => {
    // Kept in Sets, the deadlines and a signal's acts were in tables that V8 replaces as entries come and go, each
    // replaced table pointing to the next with its entries: once a full collection had promoted one, every young
    // collection after it promoted the exchanges since, their answers and texts with them (waiting-list.ts).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
    setFlagsFromString('--no-expose-gc');
    const oldUsed = () =>
      getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;
    const controller = new AbortController();
    const start = (i: number) => {
      const answer = { text: Array.from({ length: 2000 }, () => i) }; // 16 KB of young objects
      const stops = [
        onDeadline(60_000, () => void answer.text),
        onAbort(controller.signal, () => void answer.text),
      ];
      return () => stops.forEach((stop) => stop());
    };
    const inFlight = [0, 1, 2, 3].map(start);
    gc(); // promotes whatever is young: the lists as they are now, as an export's forced collections do
    const before = oldUsed();
    for (let i = 4; i < 3000; i++) {
      inFlight.shift()!();
      inFlight.push(start(i));
      if (i % 50 === 0) gc({ type: 'minor' });
    }
    const promoted = oldUsed() - before;
    inFlight.forEach((stop) => stop());
    // 3,000 answers of 16 KB: 48 MB went through the young generation; some 4 were alive at any collection.
    expect(promoted).toBeLessThan(4 * 2 ** 20);
  });

  it('a signal already aborted tells at once, unless stopped first, and keeps no listener', async () => {
    const signal = AbortSignal.abort();
    const add = vi.spyOn(signal, 'addEventListener');
    const told: string[] = [];
    onAbort(signal, () => told.push('told'));
    onAbort(signal, () => told.push('stopped'))();
    await turn();
    expect(told).toEqual(['told']);
    expect(add).not.toHaveBeenCalled();
  });

  it('a signal made by AbortSignal.any has its listener taken off once its exchanges are over', () => {
    const sources = [new AbortController(), new AbortController()];
    const any = AbortSignal.any(sources.map((c) => c.signal));
    const add = vi.spyOn(any, 'addEventListener');
    const remove = vi.spyOn(any, 'removeEventListener');
    const stops = [onAbort(any, () => undefined), onAbort(any, () => undefined)];
    for (const stop of stops) stop();
    expect(add).toHaveBeenCalledTimes(1);
    expect(remove).toHaveBeenCalledTimes(1);
    expect(remove.mock.calls[0]![1]).toBe(add.mock.calls[0]![1]);
  });
});

describe('Cancel', () => {
  it('reaches the transport whether it is ended before or after the transport takes it; the first reason wins', () => {
    const early = new Cancel();
    early.end(new Error('first'));
    early.end(new Error('second'));
    const ended: string[] = [];
    early.onEnd((error) => ended.push(error.message));
    const late = new Cancel();
    late.onEnd((error) => ended.push(error.message));
    expect(ended).toEqual(['first']);
    late.end(new Error('later'));
    late.end(new Error('again'));
    expect(ended).toEqual(['first', 'later']);
    expect(late.reason?.message).toBe('later');
  });
});
