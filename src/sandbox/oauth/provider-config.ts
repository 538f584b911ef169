// oidc-provider configuration for the sandbox: one public native client, JWT access tokens for the API, our own pages.
import { randomBytes } from 'node:crypto';
import { type Configuration, errors, interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import type { SandboxStore } from '../data/store.js';
import { escapeHtml, layout, messagePage } from './html.js';
import { createMemoryAdapter } from './memory-adapter.js';
import { OAUTH_ROUTES } from './routes.js';
import { API_SCOPES, DEFAULT_TTL, SANDBOX_SCOPES } from './scopes.js';
import type { SigningKeys } from './signing-keys.js';

export interface ProviderSettings {
  clientId: string;
  /** The API resource indicator and the `aud` of every access token (the sandbox's base_url). */
  apiResource: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  /** The sandbox's clock: stored codes, grants and refresh tokens expire by it. */
  now(): number;
  store: SandboxStore;
  keys: SigningKeys;
}

export function providerConfiguration(settings: ProviderSettings): Configuration {
  const { apiResource, accessTokenTtl, refreshTokenTtl, store } = settings;
  return {
    clients: [
      {
        client_id: settings.clientId,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        // Loopback: oidc-provider ignores the port of 127.0.0.1 redirects for native clients (RFC 8252).
        redirect_uris: ['http://127.0.0.1/callback'],
        post_logout_redirect_uris: ['http://127.0.0.1/logged-out'],
      },
    ],
    adapter: createMemoryAdapter(settings.now),
    jwks: { keys: [settings.keys.privateJwk] },
    // Random per start: cookies of an earlier sandbox on the same port are simply ignored.
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    routes: OAUTH_ROUTES,
    scopes: [...SANDBOX_SCOPES],
    // Name and email ride in the ID token with plain `openid` (and /oauth/userinfo answers them, see userinfo.ts).
    claims: { openid: ['sub', 'name', 'email'] },
    conformIdTokenClaims: false,
    pkce: { methods: ['S256'], required: () => true },
    // The document's grants are authorization_code and refresh_token: no implicit or hybrid response types.
    responseTypes: ['code'],
    findAccount: (_ctx, sub) => {
      const user = /^[1-9]\d*$/.test(sub) ? store.user(Number(sub)) : undefined;
      if (user === undefined) return undefined;
      return { accountId: sub, claims: () => ({ sub, name: user.name, email: user.email }) };
    },
    interactions: {
      url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
      policy: sandboxPolicy(),
    },
    features: {
      devInteractions: { enabled: false },
      // Not in the API document (and oidc-provider's default path for it, /request, is not mounted).
      pushedAuthorizationRequests: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      resourceIndicators: {
        enabled: true,
        // Every token is for the API, even without a `resource` parameter, so it is always a JWT.
        defaultResource: () => apiResource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== apiResource) throw new errors.InvalidTarget();
          return {
            scope: API_SCOPES.join(' '),
            audience: apiResource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: accessTokenTtl,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    // The API document: the refresh grant needs no offline_access scope.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // The grant id in each JWT access token, so the API can refuse tokens of a revoked grant (logout, reuse).
    extraTokenClaims: (_ctx, token) =>
      'grantId' in token && token.grantId ? { gid: token.grantId } : undefined,
    rotateRefreshToken: true,
    // Every TTL is set: a default TTL function prints a notice on stdout the first time it runs.
    ttl: {
      AccessToken: accessTokenTtl,
      RefreshToken: refreshTokenTtl,
      Grant: Math.max(refreshTokenTtl, DEFAULT_TTL.refreshToken),
      IdToken: DEFAULT_TTL.idToken,
      AuthorizationCode: DEFAULT_TTL.authorizationCode,
      Interaction: DEFAULT_TTL.interaction,
      Session: DEFAULT_TTL.session,
    },
    clientBasedCORS: () => false,
    renderError: (ctx, out) => {
      ctx.type = 'html';
      const lines = Object.entries(out).map(
        ([key, value]) => `<p><code>${escapeHtml(key)}</code>: ${escapeHtml(value)}</p>`,
      );
      ctx.body = layout('Sign-in problem', lines.join('\n'));
    },
  };
}

/** Ask which user signs in on every authorization: the sandbox exists to try several users in one browser. */
function sandboxPolicy(): interactionPolicy.Prompt[] {
  const policy = interactionPolicy.base();
  const chooseUser = new interactionPolicy.Check(
    'choose_user',
    'the sandbox asks which user signs in every time',
    (ctx) => !ctx.oidc.result?.login,
  );
  policy.get('login')?.checks.add(chooseUser, 0);
  return policy;
}

function logoutSource(ctx: KoaContextWithOIDC, form: string): void {
  const body = [
    `<p>Sign out of the Clinic sandbox at ${escapeHtml(ctx.host)}?</p>`,
    form,
    '<button type="submit" form="op.logoutForm" name="logout" value="yes" id="logout-yes">Yes, sign me out</button>',
    '<button type="submit" form="op.logoutForm" id="logout-no">No, stay signed in</button>',
  ].join('\n');
  ctx.type = 'html';
  ctx.body = layout('Sign out?', body);
}

function postLogoutSuccessSource(ctx: KoaContextWithOIDC): void {
  ctx.type = 'html';
  ctx.body = messagePage(
    'Signed out',
    'You are signed out of the Clinic sandbox. You can close this window.',
  );
}
