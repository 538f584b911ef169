// When a stored access token counts as expired: a little before its expiry, so it does not run out in flight.
import type { StoredCredentials } from './credential-store.js';

export const EXPIRY_SKEW_MS = 60_000;

/**
 * True within the refresh margin before expiry: 60 s, or half the token's lifetime when that is shorter, so that
 * a freshly refreshed short-lived token does not count as expiring (which would make every process refresh).
 */
export function expiresSoon(credentials: StoredCredentials, nowMs: number): boolean {
  if (credentials.expires_at === undefined) return false;
  const expiresAt = Date.parse(credentials.expires_at);
  const obtainedAt = credentials.obtained_at ? Date.parse(credentials.obtained_at) : Number.NaN;
  const margin = Number.isNaN(obtainedAt)
    ? EXPIRY_SKEW_MS
    : Math.min(EXPIRY_SKEW_MS, (expiresAt - obtainedAt) / 2);
  return expiresAt - margin <= nowMs;
}
