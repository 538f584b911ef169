// The sandbox's OpenID provider end to end: discovery, code flow with PKCE through the pages, refresh, revocation.
import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { type RunningSandbox } from '../../src/sandbox/index.js';
import { discoveryDocument } from '../helpers/oauth-discovery.js';
import { call, sandboxForFile } from './client.js';
import { Browser, discover, login, REDIRECT_URI } from './oauth-browser.js';

let sandbox: RunningSandbox;
let config: client.Configuration;
sandboxForFile(async (running) => {
  sandbox = running;
  config = await discover(sandbox);
});

describe('discovery', () => {
  it('lists the documented endpoints under auth_url', async () => {
    const origin = sandbox.info.auth_url;
    expect(config.serverMetadata()).toMatchObject({
      ...discoveryDocument(origin),
      end_session_endpoint: `${origin}/oauth/logout`,
      code_challenge_methods_supported: expect.arrayContaining(['S256']),
      scopes_supported: expect.arrayContaining(['openid', 'customers:write', '*']),
    });
    expect(config.serverMetadata().supportsPKCE()).toBe(true);
    const jwks = (await (await fetch(`${origin}/oauth/jwks`)).json()) as { keys: Record<string, string>[] };
    expect(jwks.keys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS256', use: 'sig' })]);
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('advertises only the documented grants: authorization_code and refresh_token, no implicit or PAR', async () => {
    const metadata = config.serverMetadata();
    expect(metadata.response_types_supported).toEqual(['code']);
    expect([...(metadata.grant_types_supported ?? [])].sort()).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    expect(metadata).not.toHaveProperty('pushed_authorization_request_endpoint');
    // And refuses them: an implicit request goes back to the client as unsupported_response_type.
    const implicit = new URL(`${sandbox.info.auth_url}/oauth/authorize`);
    implicit.search = new URLSearchParams({
      client_id: sandbox.info.client_id,
      response_type: 'id_token',
      redirect_uri: REDIRECT_URI,
      scope: 'openid',
      nonce: 'n',
      state: 's',
    }).toString();
    const answer = await fetch(implicit, { redirect: 'manual' });
    expect(answer.headers.get('location') ?? (await answer.text())).toContain('unsupported_response_type');
  });
});

describe('authorization code flow', () => {
  it('signs in through the pages and gets a JWT the API accepts', async () => {
    const { tokens, browser } = await login(config, {
      user: 1,
      scope: 'openid customers:read customers:write',
    });
    const [loginPage, consentPage] = browser.pages;
    expect(loginPage?.html).toContain('data-user="1"');
    expect(loginPage?.html).toContain('Dana Admin — admin at Northside Clinic');
    expect(consentPage?.html).toContain('id="consent-allow"');
    expect(consentPage?.html).toContain('<code>customers:write</code>');

    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      sub: '1',
      scope: 'customers:read customers:write',
      client_id: 'clinic-cli',
      iss: sandbox.info.auth_url,
      aud: sandbox.info.base_url,
    });
    expect(tokens.expires_in).toBe(15 * 24 * 60 * 60);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const idToken = tokens.claims();
    expect(idToken).toMatchObject({ sub: '1', name: 'Dana Admin', email: 'dana.admin@clinic-sandbox.test' });
    expect((idToken?.exp ?? 0) - (idToken?.iat ?? 0)).toBe(3600);

    const customers = await call(sandbox, '/v1/customers', { token: tokens.access_token, tenant: 1 });
    expect(customers.status).toBe(200);
    const account = await call(sandbox, '/v1/account', { token: tokens.access_token, tenant: null });
    expect(account.body.data.name).toBe('Dana Admin');
  });

  it('rotates refresh tokens and refuses the old one', async () => {
    const before = structuredClone(sandbox.oauth.grants);
    const { tokens } = await login(config, { user: 2 });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ sub: '2', scope: '*' });
    expect((await call(sandbox, '/v1/account', { token: refreshed.access_token })).body.data.name).toBe(
      'Sam Sales',
    );

    const reuse = await client.refreshTokenGrant(config, tokens.refresh_token ?? '').catch((e: unknown) => e);
    expect(reuse).toMatchObject({ error: 'invalid_grant' });
    expect(sandbox.oauth.grants).toEqual({
      authorization_code: before.authorization_code + 1,
      refresh_token: before.refresh_token + 1,
    });
  });

  it('asks who signs in again on a second authorization in the same browser', async () => {
    const browser = new Browser();
    const first = await login(config, { user: 1, browser });
    const second = await login(config, { user: 3, browser });
    expect(first.tokens.claims()?.sub).toBe('1');
    expect(second.tokens.claims()).toMatchObject({ sub: '3', name: 'Vera Viewer' });
    expect(decodeJwt(second.tokens.access_token).sub).toBe('3');
    expect(browser.pages.filter((page) => page.html.includes('name="user"'))).toHaveLength(2);
  });
});

describe('refused requests', () => {
  async function codeFor(verifier: string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'customers:read',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'st',
    });
    return new Browser().signIn(url, 1, decision);
  }
  async function exchange(code: string, verifier?: string) {
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: 'clinic-cli',
      ...(verifier === undefined ? {} : { code_verifier: verifier }),
    });
    const res = await fetch(`${sandbox.info.auth_url}/oauth/token`, { method: 'POST', body });
    return { status: res.status, body: (await res.json()) as { error?: string; access_token?: string } };
  }

  it('refuses a code without its code_verifier', async () => {
    const verifier = client.randomPKCECodeVerifier();
    const code = (await codeFor(verifier)).searchParams.get('code') ?? '';
    const refused = await exchange(code);
    expect(refused.status).toBe(400);
    expect(['invalid_grant', 'invalid_request']).toContain(refused.body.error);
  });

  it('refuses the same code twice', async () => {
    const verifier = client.randomPKCECodeVerifier();
    const code = (await codeFor(verifier)).searchParams.get('code') ?? '';
    expect((await exchange(code, verifier)).status).toBe(200);
    expect(await exchange(code, verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('sends access_denied to the callback when consent is denied', async () => {
    const callback = await codeFor(client.randomPKCECodeVerifier(), 'deny');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('error_description')).toEqual(expect.any(String));
    expect(callback.searchParams.get('state')).toBe('st');
    expect(callback.searchParams.has('code')).toBe(false);
  });

  it('answers a bad authorization request without crashing', async () => {
    const bad = await fetch(`${sandbox.info.auth_url}/oauth/authorize?client_id=nobody&response_type=code`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('invalid_client');
    const token = await fetch(`${sandbox.info.auth_url}/oauth/token`, { method: 'POST', body: 'x' });
    expect(token.status).toBe(400);
    const page = await fetch(`${sandbox.info.auth_url}/interaction/nope`);
    expect(page.status).toBe(400);
    expect((await call(sandbox, '/v1/account')).status).toBe(200);
  });
});

describe('revocation', () => {
  it('revokes a refresh token so it can no longer refresh', async () => {
    const before = sandbox.oauth.revocations;
    const { tokens } = await login(config);
    await client.tokenRevocation(config, tokens.refresh_token ?? '', { token_type_hint: 'refresh_token' });
    expect(sandbox.oauth.revocations).toBe(before + 1);
    const refused = await client
      .refreshTokenGrant(config, tokens.refresh_token ?? '')
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('logout', () => {
  it('ends the session at /oauth/logout and returns to the registered loopback URI', async () => {
    const browser = new Browser();
    const { tokens } = await login(config, { browser });
    const postLogout = 'http://127.0.0.1:53682/logged-out';
    const start = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token ?? '',
      post_logout_redirect_uri: postLogout,
    });
    const page = await browser.request(start);
    const html = await page.text();
    expect(html, html).toContain('id="logout-yes"');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const confirm = await browser.request(`${sandbox.info.auth_url}/oauth/logout/confirm`, {
      method: 'POST',
      body: new URLSearchParams({ xsrf, logout: 'yes' }),
    });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get('location')).toBe(postLogout);

    const elsewhere = client.buildEndSessionUrl(config, {
      post_logout_redirect_uri: 'http://127.0.0.1:1/elsewhere',
    });
    expect((await browser.request(elsewhere)).status).toBe(400);
  });
});
