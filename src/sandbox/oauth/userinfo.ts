// /oauth/userinfo, answered by the sandbox rather than oidc-provider: the provider refuses every access token bound to
// the API (all of the sandbox's are), while the document says the `openid` scope enables this endpoint. The token is
// checked as the API checks it (personal access tokens too), then the user's claims are answered as the ID token has
// them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticateBearer, bearerToken } from '../auth/bearer.js';
import type { JwtAccessVerifier } from '../auth/jwt-access.js';
import { scopesAllow } from '../auth/permissions.js';
import type { AccessToken, TokenStore } from '../auth/tokens.js';
import type { SandboxStore } from '../data/store.js';
import type { MountHandler } from '../dispatcher.js';
import { readFormBody } from '../http/body.js';
import { sendJson } from '../http/responses.js';

export interface UserinfoOptions {
  /** The `realm` of WWW-Authenticate. */
  issuer: string;
  store: SandboxStore;
  personalTokens: Pick<TokenStore, 'resolve'>;
  jwtAccess: JwtAccessVerifier;
  /** Whether the grant behind a JWT access token includes `openid`. */
  openidGranted(grantId: string): Promise<boolean>;
}

interface Refusal {
  status: number;
  /** RFC 6750: no error code when the request carries no token at all. */
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  description?: string;
}

export function createUserinfoHandler(options: UserinfoOptions): MountHandler {
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.setHeader('Allow', 'GET, POST');
      return sendJson(res, {
        status: 405,
        body: { error: 'invalid_request', error_description: 'use GET or POST' },
      });
    }
    const bearer = await tokenOf(req);
    if (typeof bearer === 'object') return refuse(res, options.issuer, bearer);
    if (bearer === undefined) return refuse(res, options.issuer, { status: 401 });
    const access = await authenticateBearer(options.personalTokens, options.jwtAccess, bearer);
    const user = access && options.store.user(access.userId);
    if (access === undefined || user === undefined) {
      return refuse(res, options.issuer, {
        status: 401,
        error: 'invalid_token',
        description: 'the access token is unknown, expired or revoked',
      });
    }
    if (!(await hasOpenid(options, access))) {
      return refuse(res, options.issuer, {
        status: 403,
        error: 'insufficient_scope',
        description: 'the access token was not granted the openid scope',
      });
    }
    res.setHeader('Cache-Control', 'no-store');
    sendJson(res, { status: 200, body: { sub: String(user.id), name: user.name, email: user.email } });
  };
}

/** A JWT access token by its grant's OpenID scope; a personal access token by its scopes (`*` means all). */
async function hasOpenid(options: UserinfoOptions, access: AccessToken): Promise<boolean> {
  if (access.grantId !== undefined) return options.openidGranted(access.grantId);
  return scopesAllow(access.scopes, 'openid');
}

/**
 * The token from the Authorization header or, on a POST form, the `access_token` field (RFC 6750); a refusal when both
 * are sent.
 */
async function tokenOf(req: IncomingMessage): Promise<string | undefined | Refusal> {
  const header = bearerToken(req);
  const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  if (req.method !== 'POST' || !isForm) return header;
  let form: URLSearchParams;
  try {
    form = await readFormBody(req);
  } catch {
    return { status: 413, error: 'invalid_request', description: 'the request body is too large' };
  }
  const field = form.get('access_token') ?? undefined;
  if (header !== undefined && field !== undefined) {
    return { status: 400, error: 'invalid_request', description: 'send the access token one way only' };
  }
  return header ?? field;
}

function refuse(res: ServerResponse, realm: string, refusal: Refusal): void {
  const params = [`realm="${realm}"`];
  if (refusal.error !== undefined) params.push(`error="${refusal.error}"`);
  if (refusal.description !== undefined) params.push(`error_description="${refusal.description}"`);
  if (refusal.error === 'insufficient_scope') params.push('scope="openid"');
  res.setHeader('WWW-Authenticate', `Bearer ${params.join(', ')}`);
  const body =
    refusal.error === undefined
      ? { error: 'invalid_token', error_description: 'no access token provided' }
      : { error: refusal.error, error_description: refusal.description };
  sendJson(res, { status: refusal.status, body });
}
