// Which failures are retried, and how long to wait: the contract's rules in one place.

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);
const RETRYABLE_NETWORK_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'CLINIC_DEADLINE']);

export const isIdempotent = (method: string): boolean => IDEMPOTENT.has(method.toUpperCase());

/** 429 is retried for every method (the request was not processed); 5xx only where repeating is harmless. */
export function shouldRetryStatus(
  status: number,
  method: string,
  repeatable = isIdempotent(method),
): boolean {
  if (status === 429) return true;
  return RETRYABLE_STATUS.has(status) && repeatable;
}

/** A network failure's code that may pass (a reset, a timeout): what the client retries. */
export const isRetryableNetworkCode = (code: string | undefined): boolean =>
  RETRYABLE_NETWORK_CODES.has(code ?? '');

/** Resets and timeouts: the answer was lost, so only idempotent requests may be sent again. */
export function shouldRetryNetworkError(
  error: unknown,
  method: string,
  repeatable = isIdempotent(method),
): boolean {
  return repeatable && isRetryableNetworkCode(networkErrorCode(error));
}

export function networkErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** 1, 2, 4, 8 s, then 8 s for any further attempt. `attempt` counts retries from 0. */
export function backoffMs(attempt: number): number {
  return Math.min(2 ** attempt, 8) * 1000;
}
