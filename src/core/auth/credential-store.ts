// What a stored sign-in looks like, and the interface every place that keeps one implements.
import type { CredentialStoreKind } from '../config/keys.js';

/** The origins (`https://host:port`) of the base_url and auth_url a sign-in was obtained for (see binding.ts). */
export interface SignInOrigins {
  base_url?: string;
  auth_url?: string;
}

export interface StoredCredentials {
  /** `pat` for a personal access token given with --with-token, `oauth` for a browser login. */
  kind: 'pat' | 'oauth';
  access_token: string;
  refresh_token?: string;
  /** ISO date-time when the access token expires, when known. */
  expires_at?: string;
  /** ISO date-time when the access token was obtained (to size the refresh margin to its lifetime). */
  obtained_at?: string;
  scopes?: string[];
  token_type?: string;
  /** Kept for RP-initiated logout (`id_token_hint`). */
  id_token?: string;
  /** Who signed in (`Name <email>`), to notice a login that lands in another account. */
  user?: string;
  /** Where the sign-in may be used; absent in sign-ins stored before this was recorded. */
  origins?: SignInOrigins;
}

/** Where a sign-in is kept: the `credential_store` setting's values. */
export type StoreKind = CredentialStoreKind;

export interface CredentialStore {
  readonly kind: StoreKind;
  /** Where the tokens are, in words for `auth status`. */
  readonly location: string;
  get(profile: string): Promise<StoredCredentials | undefined>;
  set(profile: string, credentials: StoredCredentials): Promise<void>;
  /** True when something was deleted. */
  delete(profile: string): Promise<boolean>;
  /** Throws unless the store can keep a sign-in now (the keychain: a throwaway entry written, read, deleted). */
  probe?(): Promise<void>;
}

/** No usable OS keychain (no Secret Service, locked, refused, timed out, keyring binary missing). */
export class KeychainUnavailableError extends Error {
  override name = 'KeychainUnavailableError';
  constructor(
    message: string,
    /** Why, in plain words (`access was denied`); the message when not given. */
    readonly reason: string = message,
    /** The keychain library's own text, for --debug only. */
    readonly detail?: string,
  ) {
    super(message);
  }
}

export function parseCredentials(text: string | null | undefined): StoredCredentials | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as StoredCredentials;
    if (typeof value?.access_token !== 'string') return undefined;
    const { origins, ...rest } = value;
    const clean = cleanOrigins(origins);
    return clean ? { ...rest, origins: clean } : rest;
  } catch {
    return undefined;
  }
}

/** Only string origins count: anything else in the entry leaves that origin unbound (and the token unsent). */
function cleanOrigins(value: unknown): SignInOrigins | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { base_url: base, auth_url: auth } = value as Record<string, unknown>;
  const origins: SignInOrigins = {};
  if (typeof base === 'string') origins.base_url = base;
  if (typeof auth === 'string') origins.auth_url = auth;
  return origins;
}
