// The scopes the sandbox's OpenID provider knows, and the token lifetimes it uses unless told otherwise.

/** OpenID Connect scopes: they shape the ID token and refresh tokens, never the API access token. */
export const OIDC_SCOPES = ['openid', 'offline_access'] as const;

/** Scopes of the REST API resource, `<first path segment>:read|write`; `*` means all of them. */
export const API_SCOPES = [
  'customers:read',
  'customers:write',
  'appointments:read',
  'appointments:write',
  'users:read',
  'leads:write',
  'channels:read',
  'conversations:read',
  'conversations:write',
  'form-templates:write',
  'announcements:read',
  'ai-reports:read',
  'sales:write',
  'account-transaction-types:read',
  'data-erasure-requests:read',
  'data-erasure-requests:write',
  '*',
] as const;

/** Every scope a client may ask for at /oauth/authorize. */
export const SANDBOX_SCOPES: readonly string[] = [...OIDC_SCOPES, ...API_SCOPES];

const DAY = 24 * 60 * 60;

/** Lifetimes in seconds, as the API document gives them (access 15 days, refresh 30 days). */
export const DEFAULT_TTL = {
  accessToken: 15 * DAY,
  refreshToken: 30 * DAY,
  idToken: 60 * 60,
  authorizationCode: 60,
  interaction: 60 * 60,
  session: 30 * DAY,
} as const;
