// What a realtime server can have the tail do again and again, by closing the connection (a close code of 4200-4299
// has pusher-js reconnect at once) or repeating itself: authorize the channel (a POST to the API) and fill every
// conversation's gap (a GET each). The tail spaces them out itself, or a server could spend the user's whole rate
// limit, shared with every other clinic process of theirs.
import type { Clock } from '../clock.js';

/** The first wait, once the thing comes back soon after the last time. */
const FIRST_WAIT_MS = 1_000;
/** The longest wait: doubled up to it while it keeps coming back. */
const MAX_WAIT_MS = 30_000;
/** Coming back after this long (from when it was last done) is a fresh start: done at once. */
const QUIET_MS = 60_000;

/** The waits before each time something is done: none the first time or after a quiet spell, then 1 s doubling to 30 s. */
export class Spacing {
  private last: number | undefined;
  private waitMs = 0;

  constructor(private readonly clock: Clock) {}

  /** How long to wait before doing it now (0: at once); it counts as done when that wait is over. */
  next(): number {
    const now = this.clock.now();
    const soon = this.last !== undefined && now - this.last < QUIET_MS;
    this.waitMs = soon ? Math.min(Math.max(this.waitMs * 2, FIRST_WAIT_MS), MAX_WAIT_MS) : 0;
    this.last = now + this.waitMs;
    return this.waitMs;
  }
}
