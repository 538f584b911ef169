// /oauth/userinfo: "adding `openid` to `scope` ... enables `/oauth/userinfo`", for the tokens the sandbox issues (the
// provider's JWT access tokens, from a real code flow with PKCE) and for personal access tokens, checked as the API
// checks them.
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { type RunningSandbox } from '../../src/sandbox/index.js';
import { readResult, sandboxForFile } from './client.js';
import { discover, login } from './oauth-browser.js';

let sandbox: RunningSandbox;
let config: client.Configuration;
sandboxForFile(async (running) => {
  sandbox = running;
  config = await discover(sandbox);
});

const DANA = { sub: '1', name: 'Dana Admin', email: 'dana.admin@clinic-sandbox.test' };

function userinfo(token: string | null, init: RequestInit = {}) {
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  return fetch(`${sandbox.info.auth_url}/oauth/userinfo`, {
    ...init,
    headers: { ...headers, ...init.headers },
  }).then(readResult);
}

describe('GET and POST /oauth/userinfo', () => {
  it('answers the claims of the ID token for an access token of a sign-in with openid', async () => {
    const { tokens } = await login(config, { user: 1, scope: 'openid customers:read' });
    const idToken = tokens.claims();
    const got = await userinfo(tokens.access_token);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toEqual(DANA);
    expect(got.body).toEqual({ sub: idToken?.sub, name: idToken?.name, email: idToken?.email });
    expect(got.headers.get('cache-control')).toBe('no-store');
    expect((await userinfo(tokens.access_token, { method: 'POST' })).body).toEqual(DANA);
    // The same through a standard client, which checks the subject against the ID token's.
    const info = await client.fetchUserInfo(config, tokens.access_token, idToken?.sub ?? '');
    expect(info).toMatchObject(DANA);
  });

  it('answers for the user who signed in, and for a refreshed token', async () => {
    const { tokens } = await login(config, { user: 2 });
    expect((await userinfo(tokens.access_token)).body).toMatchObject({ sub: '2', name: 'Sam Sales' });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
    expect((await userinfo(refreshed.access_token)).body).toMatchObject({ sub: '2', name: 'Sam Sales' });
  });

  it('takes the access token from a POSTed form (RFC 6750), but not from both places at once', async () => {
    const { tokens } = await login(config);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const body = new URLSearchParams({ access_token: tokens.access_token }).toString();
    expect((await userinfo(null, { method: 'POST', headers: form, body })).body).toEqual(DANA);
    const both = await userinfo(tokens.access_token, { method: 'POST', headers: form, body });
    expect(both.status).toBe(400);
    expect(both.headers.get('www-authenticate')).toContain('error="invalid_request"');
  });

  it('accepts personal access tokens as the API does: * includes openid', async () => {
    expect((await userinfo(sandbox.info.token)).body).toEqual(DANA);
    const viewer = sandbox.issueToken({ userId: 3, scopes: ['openid'] });
    expect((await userinfo(viewer)).body).toMatchObject({ sub: '3', name: 'Vera Viewer' });
  });

  it('refuses a token without openid: 403 insufficient_scope', async () => {
    const { tokens } = await login(config, { scope: 'customers:read' });
    const pat = sandbox.issueToken({ userId: 1, scopes: ['customers:read'] });
    for (const token of [tokens.access_token, pat]) {
      const refused = await userinfo(token);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: 'insufficient_scope' });
      expect(refused.headers.get('www-authenticate')).toMatch(
        /^Bearer realm="[^"]+", error="insufficient_scope", error_description="[^"]+", scope="openid"$/,
      );
    }
  });

  it('answers 401 with WWW-Authenticate without a token, or with a bad, expired or revoked one', async () => {
    const missing = await userinfo(null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe(`Bearer realm="${sandbox.info.auth_url}"`);

    const { tokens } = await login(config);
    await client.tokenRevocation(config, tokens.refresh_token ?? '', { token_type_hint: 'refresh_token' });
    const expired = sandbox.issueToken({ userId: 1, expiresInSeconds: 0 });
    for (const token of ['not-a-token', 'a.b.c', expired, tokens.access_token]) {
      const refused = await userinfo(token);
      expect(refused.status, token).toBe(401);
      expect(refused.body).toMatchObject({ error: 'invalid_token' });
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer realm="[^"]+", error="invalid_token"/);
    }
  });

  it('answers 405 to other methods', async () => {
    const other = await userinfo(sandbox.info.token, { method: 'DELETE' });
    expect(other.status).toBe(405);
    expect(other.headers.get('allow')).toBe('GET, POST');
  });
});
