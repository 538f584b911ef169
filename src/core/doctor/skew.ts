// Clock skew against the server's `Date` header: how far off the local clock is, and how bad that is.
import type { CheckStatus } from './check.js';

/** Above this, warn: log lines and signed URLs disagree. */
export const SKEW_WARN_MS = 30_000;
/** Above this, fail: token expiry and refresh decisions go wrong, and token servers start refusing. */
export const SKEW_FAIL_MS = 5 * 60_000;

export interface Skew {
  /** Local clock minus the server's: positive when the local clock is ahead. */
  skewMs: number;
  /** How precisely it is known (the header has whole seconds; half the round trip). */
  uncertaintyMs: number;
}

/**
 * The skew from one exchange: the server stamped its `Date` (whole seconds, so somewhere in that second) between
 * `sentAt` and `answeredAt` on the local clock; the midpoints of both intervals are compared.
 */
export function measureSkew(dateHeader: string, sentAt: number, answeredAt: number): Skew | undefined {
  const server = Date.parse(dateHeader);
  if (Number.isNaN(server)) return undefined;
  const local = (sentAt + answeredAt) / 2;
  return {
    skewMs: Math.round(local - (server + 500)),
    uncertaintyMs: Math.round(500 + (answeredAt - sentAt) / 2),
  };
}

export function classifySkew(skewMs: number): CheckStatus {
  const size = Math.abs(skewMs);
  if (size > SKEW_FAIL_MS) return 'fail';
  if (size > SKEW_WARN_MS) return 'warn';
  return 'ok';
}

/** `in step with the server (within 1 s)` or `12 s ahead of the server`. */
export function describeSkew({ skewMs, uncertaintyMs }: Skew, words: (ms: number) => string): string {
  if (Math.abs(skewMs) <= uncertaintyMs)
    return `in step with the server (within ${Math.max(1, Math.round(uncertaintyMs / 1000))} s)`;
  return `local clock ${words(skewMs)} ${skewMs > 0 ? 'ahead of' : 'behind'} the server`;
}
