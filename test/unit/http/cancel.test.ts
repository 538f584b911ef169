// What ends exchanges early is shared by all of them: one timer for every deadline, one listener per signal, and a
// Cancel that reaches the transport whenever it is ended.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Cancel, onAbort, onDeadline } from '../../../src/core/http/transport/cancel.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => vi.restoreAllMocks());

describe('deadlines', () => {
  it('a hundred in flight share one timer, which keeps nothing alive; each expires once, in time', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const expired: number[] = [];
    const stops = Array.from({ length: 100 }, (_, i) => onDeadline(60, () => expired.push(i)));
    expect(timers).toHaveBeenCalledTimes(1);
    expect((timers.mock.results[0]!.value as NodeJS.Timeout).hasRef()).toBe(false);
    stops[7]!(); // over before its deadline
    timers.mockRestore();
    await sleep(20);
    expect(expired).toEqual([]);
    await sleep(120);
    expect(expired).toEqual([...Array(100).keys()].filter((i) => i !== 7));
    await sleep(80);
    expect(expired).toHaveLength(99);
  });

  it('an earlier deadline arms the timer again; a later one waits for the sweep that reaches it', async () => {
    const expired: string[] = [];
    const stopLong = onDeadline(5_000, () => expired.push('long'));
    onDeadline(40, () => expired.push('short'));
    onDeadline(120, () => expired.push('middle'));
    await sleep(80);
    expect(expired).toEqual(['short']);
    await sleep(100);
    expect(expired).toEqual(['short', 'middle']);
    stopLong();
  });
});

describe('signals', () => {
  it('one listener a signal whatever the number of exchanges; each told once; none left once all are over', () => {
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
    expect(told).toEqual([101]);
    expect(add).toHaveBeenCalledTimes(2);
    later[1]!(); // after the abort: nothing to do, nothing thrown
  });

  it('a signal made by AbortSignal.any keeps no listener once its exchanges are over', () => {
    const sources = [new AbortController(), new AbortController()];
    const any = AbortSignal.any(sources.map((c) => c.signal));
    const add = vi.spyOn(any, 'addEventListener');
    const remove = vi.spyOn(any, 'removeEventListener');
    onAbort(any, () => undefined)();
    expect(add.mock.calls.length).toBe(remove.mock.calls.length);
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
