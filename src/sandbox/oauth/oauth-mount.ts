// The OpenID provider's mounts, with the provider (and its signing keys) made on the first request that reaches one:
// oidc-provider and an RSA key pair are most of a sandbox's start (about a second of CPU), and most sandboxes
// (scripts using the printed token, the tests) never sign in. Its counters and revoked grants exist from the start,
// so they read as zero until then. /oauth/userinfo is answered here, before the provider (see userinfo.ts).
import type { JSONWebKeySet } from 'jose';
import { createJwtAccessVerifier, type JwtAccessVerifier } from '../auth/jwt-access.js';
import type { TokenStore } from '../auth/tokens.js';
import type { MountHandler } from '../dispatcher.js';
import type { OAuthCounters, OAuthServer, OAuthServerOptions } from './oauth-server.js';
import { OAUTH_ROUTES } from './routes.js';
import { createUserinfoHandler } from './userinfo.js';

export type OAuthMountOptions = Omit<OAuthServerOptions, 'counters' | 'revokedGrants' | 'keys'> & {
  /** Personal access tokens, which /oauth/userinfo accepts as the API does. */
  personalTokens: Pick<TokenStore, 'resolve'>;
};

export interface OAuthMount extends OAuthServer {
  /** The provider's public keys, once it has made them: no token of its exists before. */
  publicJwks(): JSONWebKeySet | undefined;
  /** Checks the provider's JWT access tokens for the API (issuer, audience, revoked grants). */
  jwtAccess: JwtAccessVerifier;
}

export function mountOAuthServer(options: OAuthMountOptions): OAuthMount {
  const counters: OAuthCounters = { grants: { authorization_code: 0, refresh_token: 0 }, revocations: 0 };
  const revokedGrants = new Set<string>();
  let publicJwks: JSONWebKeySet | undefined;
  let server: Promise<OAuthServer> | undefined;
  // The request's body waits in its stream (nothing reads it) until the provider takes the request.
  const loaded = () =>
    (server ??= (async () => {
      const [{ createOAuthServer }, { generateSigningKeys }] = await Promise.all([
        import('./oauth-server.js'),
        import('./signing-keys.js'),
      ]);
      const keys = await generateSigningKeys();
      publicJwks = keys.publicJwks;
      return createOAuthServer({ ...options, keys, counters, revokedGrants });
    })());
  const jwtAccess = createJwtAccessVerifier({
    jwks: () => publicJwks,
    issuer: options.issuer,
    audience: options.apiResource,
    now: options.now,
    isRevoked: (grantId) => revokedGrants.has(grantId),
  });
  // A grant exists only once the provider does: no need to load it to say no.
  const openidGranted = async (grantId: string) =>
    server !== undefined && (await loaded()).openidGranted(grantId);
  const userinfo = createUserinfoHandler({
    issuer: options.issuer,
    store: options.store,
    personalTokens: options.personalTokens,
    jwtAccess,
    openidGranted,
  });
  const handleProvider: MountHandler = async (req, res, target) =>
    target.path === OAUTH_ROUTES.userinfo
      ? userinfo(req, res, target)
      : (await loaded()).handleProvider(req, res, target);
  const handleInteraction: MountHandler = async (req, res, target) =>
    (await loaded()).handleInteraction(req, res, target);
  return {
    handleProvider,
    handleInteraction,
    counters,
    revokedGrants,
    openidGranted,
    publicJwks: () => publicJwks,
    jwtAccess,
  };
}
