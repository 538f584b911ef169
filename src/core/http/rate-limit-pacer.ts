// Paces requests on X-RateLimit-* so long jobs wait for the next window instead of running into 429.
import type { Clock } from '../clock.js';

type Headers = Record<string, string | undefined>;

export class RateLimitPacer {
  private remaining?: number;
  /** Window reset, in local clock milliseconds (the server's timestamp corrected for clock skew). */
  private resetAtMs?: number;

  constructor(private readonly clock: Clock) {}

  /** How long to wait before the next request may be sent, in milliseconds (0 = go). */
  delayBeforeNext(): number {
    if (this.remaining === undefined || this.resetAtMs === undefined) return 0;
    if (this.remaining > 0) return 0;
    const wait = this.resetAtMs - this.clock.now();
    if (wait <= 0) {
      this.remaining = undefined;
      return 0;
    }
    return wait;
  }

  /** Called as a request is sent: counts it against the known budget. */
  noteSent(): void {
    if (this.remaining !== undefined && this.remaining > 0) this.remaining -= 1;
  }

  /** Learns the window from an answer; answers without rate headers leave pacing as it was. */
  observe(headers: Headers): void {
    const remaining = toNumber(headers['x-ratelimit-remaining']);
    const reset = toNumber(headers['x-ratelimit-reset']);
    if (remaining === undefined || reset === undefined) return;
    const serverNow = headers.date ? Date.parse(headers.date) : Number.NaN;
    const skew = Number.isNaN(serverNow) ? 0 : this.clock.now() - serverNow;
    this.remaining = remaining;
    // A little margin so the first request of the new window does not land a moment early.
    this.resetAtMs = reset * 1000 + skew + 250;
  }
}

function toNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
