// When a stored access token counts as expired: a little before its expiry, so it does not run out in flight.
import type { StoredCredentials } from './credential-store.js';

export const EXPIRY_SKEW_MS = 60_000;

export function expiresSoon(credentials: StoredCredentials, nowMs: number): boolean {
  return credentials.expires_at !== undefined && Date.parse(credentials.expires_at) - EXPIRY_SKEW_MS <= nowMs;
}
