// What can be told about a token without printing it: the claims of a JWT (expiry, scopes), never verified.
import { isoTime } from './duration.js';

export interface TokenClaims {
  /** ms since the epoch; only when `exp` is a readable time. */
  expiresAt?: number;
  /** `exp` is there but is no readable time (not a number, or far past any calendar). */
  expiryUnreadable?: boolean;
  scopes?: string[];
}

/** The expiry and scopes a JWT access token carries; undefined for an opaque token (a personal access token). */
export function jwtClaims(token: string): TokenClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { exp, scope, scopes } = payload as { exp?: unknown; scope?: unknown; scopes?: unknown };
  const expiresAt = typeof exp === 'number' && isoTime(exp * 1000) ? exp * 1000 : undefined;
  return {
    expiresAt,
    ...(exp !== undefined && expiresAt === undefined ? { expiryUnreadable: true } : {}),
    scopes:
      typeof scope === 'string'
        ? scope.split(' ').filter(Boolean)
        : Array.isArray(scopes)
          ? scopes.map(String)
          : undefined,
  };
}

/** A token without a refresh token expiring within this: warn, so nobody is surprised by a cron job failing. */
export const EXPIRY_WARN_MS = 24 * 3600_000;

export type ExpiryState = 'unknown' | 'valid' | 'expiring' | 'expired';

export function expiryState(expiresAt: number | undefined, nowMs: number): ExpiryState {
  if (expiresAt === undefined || Number.isNaN(expiresAt)) return 'unknown';
  if (expiresAt <= nowMs) return 'expired';
  if (expiresAt - nowMs < EXPIRY_WARN_MS) return 'expiring';
  return 'valid';
}
