// The keychain (usable at all, and whether this profile needs it), then the token: where it is, expiry, scopes.
import { KeychainUnavailableError } from '../auth/credential-store.js';
import { loginCommand, notLoggedInHint } from '../auth/session.js';
import { AuthError, NetworkError } from '../errors.js';
import { passingFailure, passingResult } from './passing.js';
import { type Check, fail, ok, reason, skip, warn } from './check.js';
import { isoTime, relative } from './duration.js';
import { expiryState, jwtClaims } from './token-facts.js';

/** A value read from a file, shortened for a check line. */
const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

export const keychainCheck: Check = {
  name: 'keychain',
  // The keychain store gives up after 3 s itself: once for the write-read-delete probe, once for the profile's entry.
  limitMs: () => 7000,
  async run(deps, found) {
    const name = 'keychain';
    // Runs even for a profile missing from the file: the keychain belongs to the machine.
    if (!found.settings) return skip(name, found.settingsBroken ?? 'no profile');
    const session = await deps.session();
    const profile = found.settings.profile.name;
    const kind = session.storeKind();
    const needed = !session.envToken && kind === 'keychain';
    const store = deps.store('keychain');
    const use = session.envToken
      ? 'CLINIC_TOKEN is used instead'
      : kind === 'file'
        ? 'this profile keeps its tokens in the file store'
        : kind === 'keychain'
          ? "this profile's tokens are there"
          : 'login will keep tokens there';
    try {
      // Reading alone proves little: a locked or refusing keychain reads "nothing" and then refuses login's write.
      await store.probe?.();
      const entry = await store.get(profile);
      return ok(
        name,
        `usable: ${store.location}; ${entry ? 'holds a' : 'no'} sign-in for profile ${profile}; ${use}`,
        { usable: true, needed },
      );
    } catch (error) {
      let message = error instanceof KeychainUnavailableError ? error.message : reason(error);
      if (deps.globals.debug && error instanceof KeychainUnavailableError && error.detail)
        message += ` (the keychain library said: ${error.detail})`;
      found.keychainBroken = message;
      const facts = { usable: false, needed };
      if (needed)
        return fail(
          name,
          `not usable: ${message}; ${use}`,
          'unlock the keychain (or start a Secret Service), or log in again with --insecure-storage, or set CLINIC_TOKEN',
          facts,
        );
      // Not needed by this profile (CLINIC_TOKEN, or the file it chose, which its next login keeps to): a fact, no
      // warning. A profile that has chosen no store yet would need it at its login.
      if (session.envToken || kind === 'file')
        return ok(name, `not available (${message}); not needed: ${use}`, facts);
      return warn(
        name,
        `not available (${message}); ${use}`,
        'use --insecure-storage or CLINIC_TOKEN when logging in on this machine',
        facts,
      );
    }
  },
};

/**
 * What to do about a refresh that will not pass by waiting: refused (sign in again, or the error's own way); the
 * sign-in server not reached or answering what is no sign-in server's answer (auth_url and the network).
 */
function refreshFix(error: unknown, login: string, authUrl: string | undefined): string {
  if (error instanceof AuthError) return error.hint ?? login;
  if (error instanceof NetworkError)
    return `check auth_url (${authUrl ?? 'not set'}) and the network; --debug shows the exchange`;
  return login;
}

export const tokenCheck: Check = {
  name: 'token',
  // A refresh may discover the OAuth server and call its token endpoint.
  limitMs: (deps) => Math.min(deps.globals.requestTimeoutMs, 10_000) * 2,
  async run(deps, found) {
    const name = 'token';
    if (found.settingsBroken || !found.settings) return skip(name, found.settingsBroken ?? 'no profile');
    const session = await deps.session();
    const choice = found.settings.profile;
    const login = `run: ${loginCommand(choice)}`;
    const now = deps.clock.now();

    if (session.envToken) {
      const claims = jwtClaims(session.envToken);
      const facts = {
        source: 'CLINIC_TOKEN',
        store: null,
        expires_at: isoTime(claims?.expiresAt) ?? null,
        scopes: claims?.scopes ?? null,
        refreshable: false,
      };
      const state = expiryState(claims?.expiresAt, now);
      const scopes = claims?.scopes ? `scopes ${claims.scopes.join(' ')}` : 'scopes unknown';
      if (state === 'expired') {
        found.noToken = 'CLINIC_TOKEN has expired';
        return fail(
          name,
          `CLINIC_TOKEN expired ${relative(claims!.expiresAt!, now)}`,
          'set CLINIC_TOKEN to a fresh token (it is used as is, never refreshed)',
          facts,
        );
      }
      const expiry = claims?.expiryUnreadable
        ? 'its expiry (the JWT exp claim) is no readable time'
        : state === 'unknown'
          ? 'expiry unknown (not a JWT)'
          : `expires ${relative(claims!.expiresAt!, now)}`;
      const detail = `CLINIC_TOKEN from the environment (never refreshed, never stored); ${expiry}; ${scopes}`;
      if (claims?.expiryUnreadable)
        return warn(
          name,
          detail,
          "check the token's issuer (exp should be seconds since 1970); the account check shows whether the API takes it",
          facts,
        );
      if (state === 'expiring')
        return warn(
          name,
          detail,
          'get a fresh token before it runs out: CLINIC_TOKEN is never refreshed',
          facts,
        );
      return ok(name, detail, facts);
    }

    const kind = session.storeKind();
    if (!kind) {
      found.noToken = 'not logged in';
      return fail(name, `not logged in (profile ${choice.name})`, notLoggedInHint(choice));
    }
    if (kind === 'keychain' && found.keychainBroken) {
      found.noToken = 'the keychain holding the token is not usable';
      return skip(name, `the keychain holding the token is not usable (${found.keychainBroken})`);
    }
    let stored;
    try {
      stored = await session.stored();
    } catch (error) {
      found.noToken = 'the stored token cannot be read';
      return fail(name, reason(error), error instanceof AuthError && error.hint ? error.hint : login);
    }
    if (!stored) {
      found.noToken = 'not logged in';
      return fail(name, `not logged in (profile ${choice.name})`, notLoggedInHint(choice));
    }
    found.stored = stored;
    const where = kind === 'keychain' ? 'the OS keychain' : deps.store('file').location;
    const what = stored.kind === 'pat' ? 'personal access token' : 'login token';
    const refreshable = stored.refresh_token !== undefined;
    const scopes = stored.scopes?.length ? `scopes ${stored.scopes.join(' ')}` : 'scopes not recorded';
    const expiresAt = stored.expires_at ? Date.parse(stored.expires_at) : undefined;
    const expiryUnreadable = expiresAt !== undefined && isoTime(expiresAt) === undefined;
    const facts = {
      source: stored.kind === 'pat' ? 'personal access token' : 'login',
      store: kind,
      expires_at: stored.expires_at ?? null,
      scopes: stored.scopes ?? null,
      refreshable,
    };
    const state = expiryState(expiresAt, now);
    const head = `${what} in ${where}`;
    if (expiryUnreadable)
      return warn(
        name,
        `${head}; its recorded expiry (${clip(String(stored.expires_at))}) is no readable time; ${scopes}`,
        `${login} again to record a fresh sign-in`,
        { ...facts, expires_at: null },
      );
    if (state === 'expired') {
      const ago = relative(expiresAt!, now);
      if (!refreshable) {
        found.noToken = 'the token has expired';
        return fail(
          name,
          `${head} expired ${ago} and cannot be refreshed`,
          `${login} (or pipe a new token to it with --with-token)`,
          facts,
        );
      }
      try {
        await session.accessToken(); // refreshes (once, under the profile's lock) and stores the new pair
      } catch (error) {
        // The sign-in server failed for now (5xx, 429, a reset, a timeout): the sign-in itself may be fine.
        const passing = passingFailure(error);
        if (passing) {
          found.noToken = 'the token has expired, and the sign-in server failed for a moment to refresh it';
          return passingResult(name, 'fail', `${head} expired ${ago}; its refresh`, passing, facts);
        }
        found.noToken = 'the token has expired and could not be refreshed';
        return fail(
          name,
          `${head} expired ${ago}, and the refresh failed: ${reason(error)}`,
          refreshFix(error, login, found.settings.get('auth_url')),
          facts,
        );
      }
      const fresh = await session.stored();
      const freshExpiry = fresh?.expires_at ? Date.parse(fresh.expires_at) : Number.NaN;
      const until = isoTime(freshExpiry) ? `; the new one expires ${relative(freshExpiry, now)}` : '';
      return warn(
        name,
        `${head} had expired ${ago}; refreshed now with the refresh token${until}; ${scopes}`,
        undefined,
        { ...facts, refreshed: true, expires_at: fresh?.expires_at ?? null },
      );
    }
    const expiry =
      state === 'unknown'
        ? 'no expiry recorded'
        : `expires ${relative(expiresAt!, now)} (${stored.expires_at})`;
    const detail = `${head}; ${expiry}${refreshable ? ', refreshed automatically' : ''}; ${scopes}`;
    if (state === 'expiring' && !refreshable)
      return warn(name, detail, `${login} again before then (this token cannot be refreshed)`, facts);
    return ok(name, detail, facts);
  },
};
