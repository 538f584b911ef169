// The OpenID discovery document a test sign-in server serves: its endpoints under /oauth/, as the API document has them.

export const DISCOVERY_PATH = '/.well-known/openid-configuration';

/** The document of a server at `root`, with `changes` laid over it (an endpoint moved, a field added). */
export function discoveryDocument(
  root: string,
  changes: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    issuer: root,
    authorization_endpoint: `${root}/oauth/authorize`,
    token_endpoint: `${root}/oauth/token`,
    revocation_endpoint: `${root}/oauth/revoke`,
    userinfo_endpoint: `${root}/oauth/userinfo`,
    jwks_uri: `${root}/oauth/jwks`,
    ...changes,
  };
}
