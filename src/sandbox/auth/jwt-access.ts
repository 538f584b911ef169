// Access tokens issued by the sandbox's OpenID provider: RS256 `at+jwt` JWTs, verified in-process with jose (loaded
// with the first such token: personal access tokens never need it).
import type { createLocalJWKSet, JSONWebKeySet } from 'jose';
import type { AccessToken } from './tokens.js';

export interface JwtAccessOptions {
  /** The provider's public keys (no HTTP fetch of /oauth/jwks); undefined until it has made them. */
  jwks(): JSONWebKeySet | undefined;
  issuer: string;
  /** The API resource identifier the provider puts in `aud`. */
  audience: string;
  now(): number;
  /** True for a grant that was revoked since the token was issued. */
  isRevoked?(grantId: string): boolean;
}

export type JwtAccessVerifier = (token: string) => Promise<AccessToken | undefined>;

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

export function createJwtAccessVerifier(options: JwtAccessOptions): JwtAccessVerifier {
  let keys: ReturnType<typeof createLocalJWKSet> | undefined;
  return async (token) => {
    const jwks = options.jwks();
    if (!JWT_SHAPE.test(token) || jwks === undefined) return undefined;
    const { createLocalJWKSet, jwtVerify } = await import('jose');
    keys ??= createLocalJWKSet(jwks);
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: options.audience,
        typ: 'at+jwt',
        algorithms: ['RS256'],
        requiredClaims: ['sub', 'exp'],
        currentDate: new Date(options.now()),
      });
      const sub = payload.sub ?? '';
      if (!/^[1-9]\d*$/.test(sub) || payload.exp === undefined) return undefined;
      const grantId = typeof payload.gid === 'string' ? payload.gid : undefined;
      if (grantId !== undefined && options.isRevoked?.(grantId)) return undefined;
      const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
      return { userId: Number(sub), scopes, expiresAtMs: payload.exp * 1000, grantId };
    } catch {
      // Bad signature, wrong issuer or audience, expired, malformed: all simply "not authenticated".
      return undefined;
    }
  };
}
