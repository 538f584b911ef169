// Fixed-window rate limiting per caller (user id, or IP when unauthenticated) with Laravel's headers.

export interface RateDecision {
  allowed: boolean;
  /** X-RateLimit-* always; Retry-After as well when refused. */
  headers: Record<string, string>;
}

interface Window {
  hits: number;
  resetAtMs: number;
}

/** One caller's window as the server counted it: requests let through, requests refused with 429. */
export interface RateWindow {
  caller: string;
  startMs: number;
  hits: number;
  refused: number;
}

const HISTORY_LIMIT = 10_000;

export class RateLimiter {
  private readonly windows = new Map<string, Window & { record: RateWindow }>();
  /** Every window opened, oldest first (capped), so benchmarks can read the server's own accounting. */
  readonly history: RateWindow[] = [];

  constructor(
    private perMinute: number,
    private readonly now: () => number,
    /** The window's length: a minute, as the API's, unless a test wants a shorter one. */
    private readonly windowMs = 60_000,
  ) {}

  /** A new limit starts every caller afresh, so tests can set a small limit and count from zero. */
  setLimit(perMinute: number): void {
    this.perMinute = perMinute;
    this.windows.clear();
  }

  /** Counts one request; undefined when limiting is off (no headers at all then). */
  hit(callerKey: string): RateDecision | undefined {
    if (this.perMinute === 0) return undefined;
    const now = this.now();
    let window = this.windows.get(callerKey);
    if (window === undefined || now >= window.resetAtMs) {
      // The window opens at the caller's first request, as Laravel's limiter does.
      const record = { caller: callerKey, startMs: now, hits: 0, refused: 0 };
      window = { hits: 0, resetAtMs: now + this.windowMs, record };
      this.windows.set(callerKey, window);
      if (this.history.push(record) > HISTORY_LIMIT) this.history.shift();
    }
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(this.perMinute),
      'X-RateLimit-Reset': String(Math.ceil(window.resetAtMs / 1000)),
    };
    if (window.hits >= this.perMinute) {
      headers['X-RateLimit-Remaining'] = '0';
      headers['Retry-After'] = String(Math.max(1, Math.ceil((window.resetAtMs - now) / 1000)));
      window.record.refused++;
      return { allowed: false, headers };
    }
    window.hits++;
    window.record.hits++;
    headers['X-RateLimit-Remaining'] = String(this.perMinute - window.hits);
    return { allowed: true, headers };
  }
}
