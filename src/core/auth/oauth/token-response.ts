// A token endpoint answer as stored credentials.
import type { StoredCredentials } from '../credential-store.js';

export interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  scope?: string;
  token_type?: string;
  expiresIn(): number | undefined;
  /** ID token claims, when an ID token came with the answer. */
  claims?(): Record<string, unknown> | undefined;
}

/** A refresh answer may omit what did not change (refresh token, scope, id token): keep the previous ones. */
export function toStoredCredentials(
  tokens: TokenAnswer,
  nowMs: number,
  previous?: StoredCredentials,
): StoredCredentials {
  const expiresIn = tokens.expiresIn();
  return {
    kind: 'oauth',
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token ?? previous?.refresh_token,
    expires_at: expiresIn === undefined ? undefined : new Date(nowMs + expiresIn * 1000).toISOString(),
    obtained_at: new Date(nowMs).toISOString(),
    scopes: tokens.scope ? tokens.scope.split(' ').filter(Boolean) : previous?.scopes,
    token_type: tokens.token_type ?? previous?.token_type,
    id_token: tokens.id_token ?? previous?.id_token,
    // A refreshed pair is for the same servers as the one it replaces.
    ...(previous?.origins ? { origins: previous.origins } : {}),
  };
}
