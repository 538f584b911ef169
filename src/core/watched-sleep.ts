// A wait told as it passes: the HTTP client's retries and rate-limit windows, the forwarder's tries again. What
// tells it (a countdown on a terminal, a line elsewhere) is the CLI's; this only keeps it informed.
import type { Clock } from './clock.js';

/** A wait of the HTTP client or of `chat tail --forward-to`, told to whoever shows it. */
export type Wait =
  /** The rate-limit budget is spent until its window resets; `again`: a further wait of one request, told already. */
  | { kind: 'window'; ms: number; again: boolean }
  /** Before trying again after a failure (`reason`: `HTTP 503`, `connection reset`…): retry `retry` of `of`. */
  | { kind: 'retry'; ms: number; reason: string; retry: number; of: number }
  /** Before a forwarded event is tried again (`reason`: the event and what failed); it is tried until taken. */
  | { kind: 'forward'; ms: number; reason: string };

/** Follows a wait as it passes: the time left at its start and at each whole second left, then its end. */
export interface WaitWatcher {
  left(ms: number): void;
  /** Over, or stopped (Ctrl-C). */
  end(): void;
}

/**
 * Sleeps `ms` on `clock`. With a watcher, in steps that end on each whole second left (the first step takes the
 * fraction), telling it the time left before each step, and its end however the sleep ends: a countdown follows the
 * very clock the wait is on.
 */
export async function sleepWatched(
  clock: Clock,
  ms: number,
  signal: AbortSignal | undefined,
  watcher: WaitWatcher | undefined,
): Promise<void> {
  if (!watcher) return clock.sleep(ms, signal);
  try {
    const until = clock.now() + ms;
    // Counted both ways: by the clock (a real one drifts), and by the steps slept (a clock that stands still).
    for (let slept = 0, left = ms; left > 0; left = Math.min(ms - slept, until - clock.now())) {
      watcher.left(left);
      const step = left - (Math.ceil(left / 1000) - 1) * 1000;
      await clock.sleep(step, signal);
      slept += step;
    }
  } finally {
    watcher.end();
  }
}
