// A token endpoint answer as stored credentials.
import { NetworkError } from '../../errors.js';
import type { StoredCredentials } from '../credential-store.js';

export interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  scope?: string;
  token_type?: string;
  /**
   * The lifetime in seconds as the server wrote it (openid-client's `expiresIn()` counts down from the answer's
   * arrival, whole seconds rounded down, so a lifetime of 1 reads 0).
   */
  expires_in?: number;
  /** ID token claims, when an ID token came with the answer. */
  claims?(): Record<string, unknown> | undefined;
}

/** A token answer that parsed but holds no token the CLI can send (exit 1 at login; a refresh says sign in again). */
export class UnusableTokenError extends NetworkError {}

/** The largest time a Date holds, in ms since the epoch. */
const MAX_TIME_MS = 8.64e15;

/**
 * A stated lifetime shorter than this is no plan to go by (0, 1 s: a server's slip, or a lifetime rounded down, more
 * likely than a token that short): the token is kept without an expiry, as one with no lifetime, and used until the
 * API answers 401. Planned on, it would count as expiring on every request and refresh each time. From here up it is
 * planned on (`auth token` never hands out one it knows to be expired): the refresh margin (half the lifetime at
 * most, expiry.ts) leaves at least half of each token's lifetime between refreshes.
 */
export const MIN_LIFETIME_S = 2;

/** A lifetime in seconds as openid-client reads `expires_in` (a number or a numeric string), if it is a usable one. */
export function readExpiresIn(value: unknown): number | undefined {
  const seconds =
    typeof value === 'number' ? value : typeof value === 'string' ? Number.parseFloat(value) : Number.NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/**
 * The expiry `expiresIn` seconds after `nowMs`; none (as when the server gives no lifetime: the token is used until
 * it is refused, then refreshed) when the lifetime is unusable, shorter than MIN_LIFETIME_S or ends beyond what a
 * date can hold.
 */
export function expiryAfter(nowMs: number, expiresIn: unknown): string | undefined {
  const seconds = typeof expiresIn === 'number' ? readExpiresIn(expiresIn) : undefined;
  if (seconds === undefined || seconds < MIN_LIFETIME_S) return undefined;
  const at = nowMs + seconds * 1000;
  return Number.isFinite(at) && Math.abs(at) <= MAX_TIME_MS ? new Date(at).toISOString() : undefined;
}

/** A refresh answer may omit what did not change (refresh token, scope, id token): keep the previous ones. */
export function toStoredCredentials(
  tokens: TokenAnswer,
  nowMs: number,
  previous?: StoredCredentials,
): StoredCredentials {
  // Sent in a header on every request: one token of visible ASCII (as CLINIC_TOKEN must be), else refused now, not
  // as "Invalid character in header" on each command after.
  if (typeof tokens.access_token !== 'string' || !/^[\x21-\x7e]+$/.test(tokens.access_token))
    throw new UnusableTokenError(
      'the sign-in server answered an access token with spaces or control characters',
    );
  return {
    kind: 'oauth',
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token ?? previous?.refresh_token,
    // An unusable lifetime never loses the tokens (a refresh token, under rotation, is already spent).
    expires_at: expiryAfter(nowMs, tokens.expires_in),
    obtained_at: new Date(nowMs).toISOString(),
    scopes: tokens.scope ? tokens.scope.split(' ').filter(Boolean) : previous?.scopes,
    token_type: tokens.token_type ?? previous?.token_type,
    id_token: tokens.id_token ?? previous?.id_token,
    // A refreshed pair is for the same servers, and the same user (login's "signed in as X before"), as the one it
    // replaces.
    ...(previous?.origins ? { origins: previous.origins } : {}),
    ...(previous?.user !== undefined ? { user: previous.user } : {}),
  };
}
