// The X-RateLimit-* headers of one answer, read leniently (a header may be missing or malformed).

export interface RateHeaders {
  limit?: number;
  remaining: number;
  /** ms since the epoch. */
  resetAt?: number;
}

const whole = (text: string | undefined) =>
  text !== undefined && /^\d+$/.test(text.trim()) ? Number(text) : undefined;

/** Undefined unless at least X-RateLimit-Remaining is there (headers in lower case, as the client keeps them). */
export function readRateHeaders(headers: Record<string, string>): RateHeaders | undefined {
  const remaining = whole(headers['x-ratelimit-remaining']);
  if (remaining === undefined) return undefined;
  const reset = whole(headers['x-ratelimit-reset']);
  return {
    limit: whole(headers['x-ratelimit-limit']),
    remaining,
    resetAt: reset === undefined ? undefined : reset * 1000,
  };
}
