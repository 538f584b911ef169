// The OpenID provider's mounts, with the provider (and its signing keys) made on the first request that reaches one:
// oidc-provider and an RSA key pair are most of a sandbox's start (about a second of CPU), and most sandboxes
// (scripts using the printed token, the tests) never sign in. Its counters and revoked grants exist from the start,
// so they read as zero until then.
import type { JSONWebKeySet } from 'jose';
import type { MountHandler } from '../dispatcher.js';
import type { OAuthCounters, OAuthServer, OAuthServerOptions } from './oauth-server.js';

export type OAuthMountOptions = Omit<OAuthServerOptions, 'counters' | 'revokedGrants' | 'keys'>;

export interface OAuthMount extends OAuthServer {
  /** The provider's public keys, once it has made them: no token of its exists before. */
  publicJwks(): JSONWebKeySet | undefined;
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
  const handleProvider: MountHandler = async (req, res, target) =>
    (await loaded()).handleProvider(req, res, target);
  const handleInteraction: MountHandler = async (req, res, target) =>
    (await loaded()).handleInteraction(req, res, target);
  return { handleProvider, handleInteraction, counters, revokedGrants, publicJwks: () => publicJwks };
}
