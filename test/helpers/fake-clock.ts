// A fake Clock for unit tests: sleep advances `now` at once and records every requested wait.
import type { Clock } from '../../src/core/clock.js';

export interface FakeClock extends Clock {
  /** Every wait asked for, in milliseconds, in order. */
  readonly sleeps: number[];
  advance(ms: number): void;
}

/** A whole second, so HTTP `Date` headers (second precision) equal `now()` exactly. */
export const FAKE_START = Date.parse('2025-03-01T12:00:00.000Z');

export function fakeClock(start = FAKE_START): FakeClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    async sleep(ms: number, signal?: AbortSignal) {
      sleeps.push(ms);
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      now += Math.max(0, ms);
    },
    advance(ms: number) {
      now += ms;
    },
  };
}
