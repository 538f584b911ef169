// Who a request's bearer token belongs to, as the API decides it: a personal access token, else a JWT access token of
// the sandbox's OpenID provider.
import type { IncomingMessage } from 'node:http';
import type { JwtAccessVerifier } from './jwt-access.js';
import type { AccessToken, TokenStore } from './tokens.js';

/** The token of an `Authorization: Bearer ...` header; undefined without one. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/** The live token behind `bearer`; undefined when missing, unknown, expired or revoked. */
export async function authenticateBearer(
  tokens: Pick<TokenStore, 'resolve'>,
  jwtAccess: JwtAccessVerifier | undefined,
  bearer: string | undefined,
): Promise<AccessToken | undefined> {
  if (bearer === undefined) return undefined;
  return tokens.resolve(bearer) ?? (await jwtAccess?.(bearer));
}
