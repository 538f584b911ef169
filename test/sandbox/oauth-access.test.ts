// What the API makes of the provider's JWT access tokens: scopes, roles, foreign keys and expiry; the token exchange is
// rate limited per IP address, the other OAuth endpoints are not.
import { readFile } from 'node:fs/promises';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../src/sandbox/api/routes.js';
import { type RunningSandbox, SANDBOX_SCOPES, startSandbox } from '../../src/sandbox/index.js';
import { aheadClock } from '../helpers/sandbox-clock.js';
import { call, sandboxForFile } from './client.js';
import { discover, login, REDIRECT_URI } from './oauth-browser.js';

let sandbox: RunningSandbox;
let config: client.Configuration;
sandboxForFile(async (running) => {
  sandbox = running;
  config = await discover(sandbox);
});

const newCustomer = { json: { first_name: 'Jo', last_name: 'Token' } };

describe('scopes and roles', () => {
  it('offers the OpenID scopes and those docs/sandbox.md documents, each of a resource the API serves', async () => {
    const doc = await readFile(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');
    const paragraph = /^Scopes are [\s\S]*?(?=\n\n)/m.exec(doc)?.[0] ?? '';
    const documented = [...paragraph.matchAll(/`([a-z-]+):(read\|write|read|write)`/g)].flatMap(
      ([, resource, modes]) => (modes as string).split('|').map((mode) => `${resource}:${mode}`),
    );
    expect(documented.length).toBeGreaterThan(10);
    expect(paragraph).toContain('and `*`');
    const offered = config.serverMetadata().scopes_supported ?? [];
    expect([...offered].sort()).toEqual(['openid', 'offline_access', ...documented, '*'].sort());
    expect([...SANDBOX_SCOPES].sort()).toEqual([...offered].sort());
    const resources = new Set(API_ROUTES.map((route) => route.pattern.split('/')[2]));
    for (const scope of documented) expect(resources, scope).toContain(scope.split(':')[0]);
  });

  it('lets a customers:read token read but not write', async () => {
    const { tokens } = await login(config, { scope: 'openid customers:read' });
    expect(decodeJwt(tokens.access_token).scope).toBe('customers:read');
    expect((await call(sandbox, '/v1/customers', { token: tokens.access_token })).status).toBe(200);
    const write = await call(sandbox, '/v1/customers', { token: tokens.access_token, ...newCustomer });
    expect(write).toMatchObject({ status: 403, body: { message: 'Invalid scope(s) provided.' } });
  });

  it('still applies the role: a viewer with * cannot create', async () => {
    const { tokens } = await login(config, { user: 3, scope: '*' });
    expect((await call(sandbox, '/v1/customers', { token: tokens.access_token })).status).toBe(200);
    const write = await call(sandbox, '/v1/customers', { token: tokens.access_token, ...newCustomer });
    expect(write).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.' } });
  });

  it('keeps personal access tokens working', async () => {
    expect((await call(sandbox, '/v1/account')).body.data.name).toBe('Dana Admin');
  });
});

describe('rejected JWTs', () => {
  it('answers 401 for a token signed by another key, even with the right claims and kid', async () => {
    const { tokens } = await login(config);
    const genuine = decodeJwt(tokens.access_token);
    const { keys } = (await (await fetch(`${sandbox.info.auth_url}/oauth/jwks`)).json()) as {
      keys: { kid: string }[];
    };
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ ...genuine })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: keys[0]?.kid })
      .sign(privateKey);
    const result = await call(sandbox, '/v1/account', { token: forged });
    expect(result).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
  });

  it('answers 401 for garbage that looks like a JWT', async () => {
    for (const token of ['a.b.c', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.', `${'x'.repeat(20)}.y.z`]) {
      expect((await call(sandbox, '/v1/account', { token })).status).toBe(401);
    }
  });
});

describe('short lifetimes', () => {
  it('expires access tokens (401) and refresh tokens (invalid_grant)', async () => {
    // Lifetimes of half a minute, passed by moving the clock: one of a second could pass in real time on a loaded
    // machine between the sign-in and the first call (the provider stamps tokens with the wall clock).
    const clock = aheadClock();
    const brief = await startSandbox({
      port: 0,
      rateLimit: 0,
      accessTokenTtl: 30,
      refreshTokenTtl: 30,
      clock,
    });
    try {
      const briefConfig = await discover(brief);
      const { tokens } = await login(briefConfig);
      expect(tokens.expires_in).toBe(30);
      expect((await call(brief, '/v1/account', { token: tokens.access_token })).status).toBe(200);
      clock.advance(31_000);
      const expired = await call(brief, '/v1/account', { token: tokens.access_token });
      expect(expired).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
      const refresh = await client.refreshTokenGrant(briefConfig, tokens.refresh_token ?? '').catch((e) => e);
      expect(refresh).toMatchObject({ error: 'invalid_grant' });
    } finally {
      await brief.close();
    }
  });

  it('refuses lifetimes below one second', async () => {
    await expect(startSandbox({ accessTokenTtl: 0 })).rejects.toThrow(/accessTokenTtl/);
    await expect(startSandbox({ refreshTokenTtl: 1.5 })).rejects.toThrow(/refreshTokenTtl/);
  });
});

describe('rate limit and request log', () => {
  it('counts /oauth/token per IP address in the API limiter, with the rate headers; the pages are not counted', async () => {
    const limited = await startSandbox({ port: 0, rateLimit: 2 });
    try {
      const limitedConfig = await discover(limited);
      const first = await login(limitedConfig);
      const exchange = () =>
        fetch(`${limited.info.auth_url}/oauth/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            client_id: limited.info.client_id,
            code: 'no-such-code',
            code_verifier: 'x'.repeat(43),
            redirect_uri: REDIRECT_URI,
          }),
        });
      // The second exchange of this address: the provider answers it, the limiter's headers ride along.
      const refusedByProvider = await exchange();
      expect(refusedByProvider.status).toBe(400);
      expect(await refusedByProvider.json()).toMatchObject({ error: 'invalid_grant' });
      expect(refusedByProvider.headers.get('x-ratelimit-limit')).toBe('2');
      expect(refusedByProvider.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(refusedByProvider.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      // The third: 429 with Retry-After, before the provider sees it.
      const tooMany = await exchange();
      expect(tooMany.status).toBe(429);
      expect(await tooMany.json()).toEqual({ message: 'Too Many Attempts.' });
      expect(Number(tooMany.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(tooMany.headers.get('x-ratelimit-remaining')).toBe('0');
      // One limiter: an API call without a token is the same address's request, while a user has a quota of their own.
      expect((await call(limited, '/v1/account', { token: null })).status).toBe(429);
      expect((await call(limited, '/v1/account', { token: first.tokens.access_token })).status).toBe(200);
      expect(limited.rateWindows()).toContainEqual(
        expect.objectContaining({ caller: 'ip:127.0.0.1', hits: 2, refused: 2 }),
      );
      // Discovery and the sign-in pages are not counted: a sign-in gets as far as the token exchange.
      const third = await login(await discover(limited)).catch((error: unknown) => error);
      expect(third).toBeInstanceOf(Error);
      const paths = limited.requests.map((request) => request.path);
      expect(paths).toContain('/.well-known/openid-configuration');
      expect(paths).toContain('/oauth/token');
      expect(paths.some((path) => path.startsWith('/interaction/'))).toBe(true);
    } finally {
      await limited.close();
    }
  });
});
