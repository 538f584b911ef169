// Refreshes a stored OAuth sign-in once across processes: a lock per profile, and a re-read inside it so a peer's
// fresh tokens are used instead of spending (and, with rotation, invalidating) the refresh token again.
import type { Configuration } from 'openid-client';
import type { Clock } from '../clock.js';
import type { Settings } from '../config/settings.js';
import { AuthError } from '../errors.js';
import { withLock } from '../lock.js';
import type { CredentialStore, StoredCredentials } from './credential-store.js';
import { registerSecret } from '../redact.js';
import { adoptLegacy, requireAuthOrigin } from './binding.js';
import { expiresSoon } from './expiry.js';
import { refreshFailure } from './refresh-failure.js';
import { requireEndpointsAt } from './oauth/authorization-server.js';
import { toStoredCredentials } from './oauth/token-response.js';

export interface RefreshDeps {
  profile: string;
  store: CredentialStore;
  /** The sign-in's lock (signInLock). */
  lock: string;
  server(): Promise<Configuration>;
  clock: Clock;
  /** What to tell the user when only a new sign-in helps, e.g. `run: clinic login`. */
  loginHint: string;
  /** The settings in use: the refresh token goes only to the auth_url origin the sign-in came from. */
  settings: Settings;
}

export async function refreshCredentials(
  deps: RefreshDeps,
  seen: StoredCredentials,
  force = false,
): Promise<StoredCredentials> {
  return withLock(deps.lock, async () => {
    const stored = await deps.store.get(deps.profile);
    if (!stored) throw new AuthError(`not logged in (profile ${deps.profile})`, deps.loginHint);
    const current = adoptLegacy(stored, deps.settings);
    registerSecret(current.access_token, current.refresh_token); // a peer's pair, never echoed on stderr
    const peerRefreshed = current.access_token !== seen.access_token;
    if (!force && peerRefreshed && !expiresSoon(current, deps.clock.now())) return current;
    if (!current.refresh_token) {
      throw new AuthError(
        `the sign-in of profile ${deps.profile} has expired and cannot be refreshed`,
        deps.loginHint,
      );
    }
    // Before the sign-in server is even looked up: CLINIC_AUTH_URL or an edited auth_url must not collect it.
    requireAuthOrigin(current, deps.settings, deps.loginHint);
    const client = await import('openid-client');
    let next: StoredCredentials;
    try {
      const server = await deps.server();
      // Where the refresh token goes: the origin the sign-in is bound to (discovery may name any address).
      requireEndpointsAt(server, current.origins?.auth_url ?? '');
      const tokens = await client.refreshTokenGrant(server, current.refresh_token);
      next = toStoredCredentials(tokens, deps.clock.now(), current);
    } catch (caught) {
      // Refused or no usable token: exit 3, sign in again; unreachable, timed out or 5xx: exit 1 (refresh-failure.ts).
      throw refreshFailure(caught, deps.profile, deps.loginHint);
    }
    await deps.store.set(deps.profile, next);
    return next;
  });
}
