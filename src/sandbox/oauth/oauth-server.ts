// The sandbox's OpenID provider: oidc-provider mounted on the sandbox's one HTTP server, with counters for tests.
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import type { MountHandler } from '../dispatcher.js';
import { createInteractionHandler } from './interactions.js';
import { allowLoopbackLogoutPorts } from './loopback-logout.js';
import { type ProviderSettings, providerConfiguration } from './provider-config.js';
import { OAUTH_ROUTES } from './routes.js';

export interface OAuthCounters {
  /** Successful token requests, by grant type. */
  grants: { authorization_code: number; refresh_token: number };
  /** Revocation requests answered 200 (RFC 7009 answers 200 for unknown tokens too). */
  revocations: number;
}

export interface OAuthServerOptions extends ProviderSettings {
  issuer: string;
  /** Kept by the caller, so they can be read before the provider is first loaded (oauth-mount.ts). */
  counters: OAuthCounters;
  revokedGrants: Set<string>;
}

export interface OAuthServer {
  /** For /oauth and /.well-known: handled by oidc-provider itself. */
  handleProvider: MountHandler;
  /** For /interaction: our sign-in and consent pages. */
  handleInteraction: MountHandler;
  counters: OAuthCounters;
  /** Grants revoked (revocation, refresh-token or code reuse, end session): their access tokens stop working. */
  revokedGrants: ReadonlySet<string>;
  /** Whether a live grant includes the `openid` scope, which the API's JWT access tokens leave out of theirs. */
  openidGranted(grantId: string): Promise<boolean>;
}

export function createOAuthServer(options: OAuthServerOptions): OAuthServer {
  const provider = new Provider(options.issuer, providerConfiguration(options));
  // Koa would print unexpected errors to stderr; the provider already answers them as server_error.
  provider.app.silent = true;
  allowLoopbackLogoutPorts(provider);

  const { counters, revokedGrants } = options;
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    const type = ctx.oidc.params?.grant_type;
    if (type === 'authorization_code' || type === 'refresh_token') counters.grants[type]++;
  });
  provider.on('grant.revoked', (_ctx: KoaContextWithOIDC, grantId: string) => revokedGrants.add(grantId));
  // oidc-provider 8 emits no event for a successful revocation, so count the answers instead.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.method === 'POST' && ctx.path === OAUTH_ROUTES.revocation && ctx.status === 200) {
      counters.revocations++;
    }
  });

  const callback = provider.callback() as (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  return {
    handleProvider: (req, res) => callback(req, res),
    handleInteraction: createInteractionHandler(provider, options.store),
    counters,
    revokedGrants,
    openidGranted: async (grantId) => {
      const grant = await provider.Grant.find(grantId);
      return grant?.getOIDCScope().split(' ').includes('openid') ?? false;
    },
  };
}
