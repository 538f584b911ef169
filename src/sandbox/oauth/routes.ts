// Where the OpenID provider's endpoints sit: under /oauth, as the API document names them. Kept apart from
// provider-config.ts so that reading them does not load oidc-provider.
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  jwks: '/oauth/jwks',
  userinfo: '/oauth/userinfo',
  end_session: '/oauth/logout',
  revocation: '/oauth/revoke',
} as const;
