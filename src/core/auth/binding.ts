// A stored sign-in belongs to the servers it was obtained from: the origins of base_url and auth_url are kept with
// the tokens, and a token is never sent (nor a refresh token spent) where the settings in use now point elsewhere.
import type { Settings } from '../config/settings.js';
import { AuthError } from '../errors.js';
import { withLock } from '../lock.js';
import type { CredentialStore, SignInOrigins, StoredCredentials } from './credential-store.js';

export function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The origins a sign-in made with these settings is for: base_url, and auth_url (default: base_url's origin). */
export function signInOrigins(settings: Settings): SignInOrigins {
  const base = originOf(settings.get('base_url'));
  const auth = originOf(settings.get('auth_url')) ?? base;
  return { ...(base ? { base_url: base } : {}), ...(auth ? { auth_url: auth } : {}) };
}

/**
 * A sign-in stored before origins were recorded is bound, the first time it is used, to the origins of the profile's
 * own base_url and auth_url (never to a flag or CLINIC_* override, which could point anywhere). What the profile does
 * not name stays unbound, and an unbound sign-in is sent nowhere.
 */
export function bindToProfile(credentials: StoredCredentials, own: SignInOrigins): StoredCredentials {
  const origins = { ...own, ...credentials.origins };
  const same =
    origins.base_url === credentials.origins?.base_url && origins.auth_url === credentials.origins?.auth_url;
  return same ? credentials : { ...credentials, origins };
}

export interface BindingDeps {
  profile: string;
  store: CredentialStore;
  /** The sign-in's lock (signInLock). */
  lock: string;
}

/**
 * Keeps the binding of an old sign-in (so a later edit of the profile cannot move it); under the refresh lock and
 * only over the very tokens it was made from, so it never writes back a pair a peer has just rotated.
 */
export async function recordBinding(deps: BindingDeps, bound: StoredCredentials): Promise<void> {
  await withLock(deps.lock, async () => {
    const current = await deps.store.get(deps.profile);
    if (!current || current.access_token !== bound.access_token) return;
    const next = bindToProfile(current, bound.origins ?? {});
    if (next !== current) await deps.store.set(deps.profile, next);
  });
}

/** An old sign-in bound to the profile's own origins (see bindToProfile). */
export function adoptLegacy(credentials: StoredCredentials, settings: Settings): StoredCredentials {
  return bindToProfile(credentials, signInOrigins(settings.own()));
}

/** Before the access token goes to the API: the base_url in use must be the one it was obtained for. */
export function requireApiOrigin(
  credentials: StoredCredentials,
  settings: Settings,
  loginHint: string,
): void {
  const url = settings.get('base_url');
  if (url === undefined) return; // no request can be made; `auth token` prints the token for this profile
  requireBoundTo(credentials, {
    profile: settings.profile.name,
    key: 'base_url',
    url,
    from: settingOrigin(settings, 'base_url'),
    loginHint,
  });
}

/** Before the refresh token goes to the sign-in server: the auth_url in use must be the one it came from. */
export function requireAuthOrigin(
  credentials: StoredCredentials,
  settings: Settings,
  loginHint: string,
): void {
  const url = settings.get('auth_url') ?? originOf(settings.get('base_url'));
  if (url === undefined) return; // the sign-in server cannot even be found (a usage error follows)
  requireBoundTo(credentials, {
    profile: settings.profile.name,
    key: 'auth_url',
    url,
    from: settingOrigin(settings, 'auth_url'),
    loginHint,
  });
}

interface Refusal {
  profile: string;
  /** The setting whose origin differs: base_url or auth_url. */
  key: 'base_url' | 'auth_url';
  /** The address in use now. */
  url: string;
  /** Where it came from, e.g. `--base-url`, `CLINIC_BASE_URL`, `the profile`. */
  from: string;
  /** How to sign in at the address in use. */
  loginHint: string;
}

/** Throws (exit 3) unless the sign-in is bound to the origin of `url`; the message names both addresses. */
export function requireBoundTo(credentials: StoredCredentials, refusal: Refusal): void {
  const bound = credentials.origins?.[refusal.key];
  const wanted = originOf(refusal.url);
  if (bound !== undefined && bound === wanted) return;
  const what = refusal.key === 'base_url' ? 'sent' : 'refreshed';
  const where =
    bound === undefined
      ? `records no ${refusal.key} (it was stored before sign-ins were bound to their server, and profile ` +
        `${refusal.profile} sets no ${refusal.key} of its own)`
      : `was made for ${bound}`;
  throw new AuthError(
    `the sign-in of profile ${refusal.profile} ${where}, but ${refusal.key} is now ${wanted ?? refusal.url} ` +
      `(from ${refusal.from}); it was not ${what}`,
    `${refusal.loginHint} (to sign in at ${wanted ?? refusal.url})`,
  );
}

/** Where a setting's value comes from, in words for a refusal. */
export function settingOrigin(settings: Settings, key: 'base_url' | 'auth_url'): string {
  const { source } = settings.describe(key);
  if (source === 'flag') return `--${key.replace(/_/g, '-')}`;
  if (source === 'env') return key === 'base_url' ? 'CLINIC_BASE_URL' : 'CLINIC_AUTH_URL';
  if (source === 'profile') return `profile ${settings.profile.name}`;
  return `the origin of base_url, from ${settingOrigin(settings, 'base_url')}`;
}
