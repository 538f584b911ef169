// One signal for several: it aborts when any source does, with the source's reason and in the same turn; a released
// link is told nothing; and a long-lived source (Ctrl-C's signal) carries one listener however many links it has had.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { anySignal } from '../../../src/core/http/any-signal.js';

describe('anySignal', () => {
  it('aborts with the first source to abort, at once, and releases its other links', () => {
    const [a, b] = [new AbortController(), new AbortController()];
    const linked = anySignal([a.signal, undefined, b.signal]);
    const reason = new Error('Ctrl-C');
    b.abort(reason);
    expect(linked.signal?.aborted).toBe(true);
    expect(linked.signal?.reason).toBe(reason);
    a.abort(new Error('later')); // released: the linked signal keeps the first reason
    expect(linked.signal?.reason).toBe(reason);
  });

  it('a released link is not aborted by its sources', () => {
    const source = new AbortController();
    const other = new AbortController();
    const released = anySignal([source.signal, other.signal]);
    const kept = anySignal([source.signal, other.signal]);
    released.release();
    released.release(); // twice is harmless
    source.abort();
    expect(released.signal?.aborted).toBe(false);
    expect(kept.signal?.aborted).toBe(true);
  });

  it('one source or none is the signal itself; a source already aborted aborts the link at once', () => {
    const source = new AbortController();
    expect(anySignal([undefined, source.signal]).signal).toBe(source.signal);
    expect(anySignal([]).signal).toBeUndefined();
    const gone = AbortSignal.abort(new Error('before'));
    const linked = anySignal([source.signal, gone]);
    expect(linked.signal?.aborted).toBe(true);
    expect(getEventListeners(source.signal, 'abort')).toHaveLength(0);
  });

  it("a long-lived source has one listener however many links it has (one a request's wait), none once all are released", () => {
    // Node's EventTarget keeps a removed listener's link to the next one: a listener added and removed per request
    // chained each request to the next, which a collection of the young generation could not see through.
    const run = new AbortController();
    const list = new AbortController();
    const links = Array.from({ length: 200 }, () => anySignal([run.signal, list.signal]));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
    expect(getEventListeners(list.signal, 'abort')).toHaveLength(1);
    for (const link of links.slice(0, 199)) link.release();
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
    run.abort();
    expect(links[199]!.signal?.aborted).toBe(true);
    expect(links[0]!.signal?.aborted).toBe(false);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    // Every link released: the source keeps no listener (one made by AbortSignal.any would be kept alive by it).
    links[199]!.release();
    expect(getEventListeners(list.signal, 'abort')).toHaveLength(0);
    const again = anySignal([list.signal, new AbortController().signal]);
    expect(getEventListeners(list.signal, 'abort')).toHaveLength(1);
    again.release();
    expect(getEventListeners(list.signal, 'abort')).toHaveLength(0);
  });
});
