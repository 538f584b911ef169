// Where codes and tokens go: only to auth_url's origin, whatever the discovery document names (login's code
// exchange, a refresh, logout's revocation); and a token answer with an unusable expires_in never loses the tokens.
// Real node:http servers: the sign-in server on 127.0.0.1, "another origin" on 127.0.0.2.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredCredentials } from '../../../src/core/auth/credential-store.js';
import {
  loadAuthorizationServer,
  requireEndpointsAt,
} from '../../../src/core/auth/oauth/authorization-server.js';
import { expiryAfter, toStoredCredentials } from '../../../src/core/auth/oauth/token-response.js';
import { NetworkError } from '../../../src/core/errors.js';
import { FAKE_START } from '../../helpers/fake-clock.js';
import { runInProcess } from '../../helpers/in-process.js';
import { DISCOVERY_PATH, discoveryDocument } from '../../helpers/oauth-discovery.js';
import { useTempDir } from '../../helpers/temp-dir.js';

interface Hit {
  method: string;
  path: string;
  body: string;
}

const servers: Server[] = [];
let home: string;
let other: string;
/** Requests that reached the sign-in server, and the other origin. */
let atHome: Hit[];
let atOther: Hit[];
/** What the discovery document changes, given both origins. */
let moved: (other: string) => Record<string, unknown>;
/** False: the sign-in server has no discovery document (404). */
let discovery: boolean;
/** The token endpoint's answer, as JSON text, and how long it takes. */
let tokenAnswer: string;
let tokenDelayMs: number;

async function listen(host: string, handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

async function record(req: IncomingMessage, hits: Hit[]): Promise<Hit> {
  let body = '';
  for await (const chunk of req) body += chunk;
  const hit = { method: req.method ?? '', path: req.url ?? '', body };
  hits.push(hit);
  return hit;
}

const json = (res: ServerResponse, text: string) =>
  void res.writeHead(200, { 'content-type': 'application/json' }).end(text);

beforeEach(async () => {
  atHome = [];
  atOther = [];
  moved = () => ({});
  discovery = true;
  tokenAnswer = tokens(3600);
  tokenDelayMs = 0;
  home = await listen('127.0.0.1', (req, res) => {
    void record(req, atHome).then(({ path }) => {
      const url = new URL(path, home);
      if (url.pathname === DISCOVERY_PATH && discovery)
        return json(res, JSON.stringify(discoveryDocument(home, moved(other))));
      if (url.pathname === '/oauth/authorize') {
        const back = new URL(url.searchParams.get('redirect_uri') ?? '');
        back.search = new URLSearchParams({
          code: 'the-code',
          state: url.searchParams.get('state') ?? '',
        }).toString();
        return void res.writeHead(302, { location: back.href }).end();
      }
      if (url.pathname === '/oauth/token') return void setTimeout(() => json(res, tokenAnswer), tokenDelayMs);
      if (url.pathname === '/oauth/revoke') return void res.writeHead(200).end();
      if (url.pathname === '/api/v1/account')
        return json(
          res,
          JSON.stringify({ success: true, data: { id: 1, name: 'ada', email: 'ada@x.test' } }),
        );
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found."}');
    });
  });
  // Another origin that would gladly take anything, and answer like a token endpoint.
  other = await listen('127.0.0.2', (req, res) => {
    void record(req, atOther).then(() => json(res, tokenAnswer));
  });
});

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

function tokens(expiresIn: unknown, n = 2): string {
  return JSON.stringify({
    access_token: `at-${n}`,
    refresh_token: `rt-${n}`,
    token_type: 'Bearer',
    scope: 'customers:read',
    expires_in: expiresIn,
  });
}

const dir = useTempDir('clinic-token-destinations-');

/** A profile signed in at `home` (tokens at-1 / rt-1, bound to its origin) in a file store. */
async function signedIn(): Promise<Record<string, string>> {
  const configDir = join(dir.path, 'config');
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const profile = {
    base_url: `${home}/api`,
    auth_url: home,
    client_id: 'clinic-cli',
    credential_store: 'file',
  };
  await writeFile(join(configDir, 'config.json'), JSON.stringify({ profiles: { default: profile } }), {
    mode: 0o600,
  });
  const entry: StoredCredentials = {
    kind: 'oauth',
    access_token: 'at-1',
    refresh_token: 'rt-1',
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    origins: { base_url: home, auth_url: home },
  };
  await writeFile(join(configDir, 'credentials.json'), JSON.stringify({ default: entry }), { mode: 0o600 });
  return { CLINIC_CONFIG_DIR: configDir };
}

async function stored(env: Record<string, string>): Promise<StoredCredentials | undefined> {
  const text = await readFile(join(env.CLINIC_CONFIG_DIR as string, 'credentials.json'), 'utf8');
  return (JSON.parse(text) as Record<string, StoredCredentials>).default;
}

/** A browser that follows the sign-in's redirects to the callback, as one that is already signed in would. */
const followingBrowser = {
  open: async (url: string) => {
    void fetch(url).catch(() => undefined);
  },
};

const run = async (argv: string[], env: Record<string, string>) =>
  runInProcess(argv, { env, deps: { browser: followingBrowser } });

const login = ['login', '--insecure-storage', '--scopes', 'customers:read', '--timeout', '10'];

describe('a discovery document that sends tokens to another origin', () => {
  it.each(['token_endpoint', 'revocation_endpoint', 'userinfo_endpoint', 'introspection_endpoint'])(
    'naming its %s there is refused, naming both origins',
    async (key) => {
      moved = (elsewhere) => ({ [key]: `${elsewhere}/oauth/x` });
      const error = await loadAuthorizationServer({ authUrl: home, clientId: 'c' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as Error).message).toBe(
        `the sign-in server ${home} names its ${key} at another origin (${other}); refused: ` +
          `codes and tokens are sent only to ${home}`,
      );
      expect(atOther).toEqual([]);
    },
  );

  // Exit 1, an answer the CLI cannot use: the discovery request has been sent, so it is no usage error (exit 2).
  it('login: refused (exit 1) before the browser opens or the code goes anywhere', async () => {
    const env = await signedIn();
    moved = (elsewhere) => ({ token_endpoint: `${elsewhere}/oauth/token` });
    const result = await run(login, env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: the sign-in server ${home} names its token_endpoint at another origin (${other}); refused: ` +
        `codes and tokens are sent only to ${home}\n`,
    );
    expect(atOther).toEqual([]);
    expect(atHome.map((hit) => hit.path)).toEqual([DISCOVERY_PATH]);
  });

  it('refresh: refused (exit 1: logging in again would not help), the refresh token is sent nowhere and stays stored', async () => {
    const env = await signedIn();
    moved = (elsewhere) => ({ token_endpoint: `${elsewhere}/oauth/token` });
    const result = await run(['auth', 'refresh'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`names its token_endpoint at another origin (${other})`);
    expect(atOther).toEqual([]);
    expect(atHome.map((hit) => hit.path)).toEqual([DISCOVERY_PATH]);
    expect((await stored(env))?.refresh_token).toBe('rt-1');
  });

  it('the same host on another port is another origin', async () => {
    const env = await signedIn();
    moved = () => ({ token_endpoint: `${home.replace(/:\d+$/, ':1')}/oauth/token` });
    const result = await run(['auth', 'refresh'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('at another origin (http://127.0.0.1:1)');
  });

  it('logout: nothing is revoked there, the sign-in is still deleted here', async () => {
    const env = await signedIn();
    moved = (elsewhere) => ({ revocation_endpoint: `${elsewhere}/oauth/revoke` });
    const result = await run(['logout'], env);
    expect(atOther).toEqual([]);
    expect(result.stderr).toContain(`names its revocation_endpoint at another origin (${other})`);
    expect(result.stderr).toContain('logged out of profile default');
    expect(result.code).toBe(0);
    expect(await stored(env)).toBeUndefined();
  });
});

describe('a discovery document that keeps tokens at home', () => {
  it('login exchanges the code (with the PKCE verifier) there', async () => {
    const env = await signedIn();
    const result = await run(login, env);
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
    const exchange = atHome.find((hit) => hit.path === '/oauth/token');
    expect(exchange?.body).toMatch(/code=the-code.*code_verifier=|code_verifier=.*code=the-code/);
    expect((await stored(env))?.access_token).toBe('at-2');
    expect(atOther).toEqual([]);
  });

  it('refresh and logout go there', async () => {
    const env = await signedIn();
    expect((await run(['auth', 'refresh'], env)).code).toBe(0);
    expect((await stored(env))?.refresh_token).toBe('rt-2');
    expect((await run(['logout'], env)).code).toBe(0);
    const revoked = atHome.filter((hit) => hit.path === '/oauth/revoke').map((hit) => hit.body);
    expect(revoked[0]).toContain('token=rt-2');
    expect(atOther).toEqual([]);
  });

  it('without a discovery document, refresh uses /oauth/token on auth_url', async () => {
    const env = await signedIn();
    discovery = false;
    expect((await run(['auth', 'refresh'], env)).code).toBe(0);
    expect(atHome.map((hit) => `${hit.method} ${hit.path}`)).toEqual([
      `GET ${DISCOVERY_PATH}`,
      'POST /oauth/token',
    ]);
    expect((await stored(env))?.refresh_token).toBe('rt-2');
  });

  it('a discovery document of another issuer is still refused', async () => {
    const env = await signedIn();
    moved = (elsewhere) => ({ issuer: elsewhere });
    expect((await run(['auth', 'refresh'], env)).code).not.toBe(0);
    expect(atOther).toEqual([]);
    expect((await stored(env))?.refresh_token).toBe('rt-1');
  });
});

describe('requireEndpointsAt', () => {
  const configOf = async (metadata: Record<string, string>) => {
    const client = await import('openid-client');
    return new client.Configuration({ issuer: 'https://a.example', ...metadata }, 'c');
  };

  it('takes default ports as the same origin; another scheme, host or port is refused', async () => {
    requireEndpointsAt(
      await configOf({ token_endpoint: 'https://a.example:443/token' }),
      'https://a.example',
    );
    requireEndpointsAt(await configOf({ token_endpoint: 'https://A.EXAMPLE/token' }), 'https://a.example');
    for (const elsewhere of [
      'http://a.example/token',
      'https://b.example/token',
      'https://a.example:8443/t',
    ]) {
      await expect(
        configOf({ token_endpoint: elsewhere }).then((c) => requireEndpointsAt(c, 'https://a.example')),
      ).rejects.toBeInstanceOf(NetworkError);
    }
  });

  it('lets the authorization endpoint (opened in the browser, no secret) and jwks_uri live elsewhere', async () => {
    const config = await configOf({
      authorization_endpoint: 'https://login.example/authorize',
      jwks_uri: 'https://keys.example/jwks',
      token_endpoint: 'https://a.example/token',
    });
    expect(() => requireEndpointsAt(config, 'https://a.example')).not.toThrow();
  });

  it('refuses an end-session address elsewhere (the ID token goes there as a hint)', async () => {
    const config = await configOf({ end_session_endpoint: 'https://b.example/logout' });
    expect(() => requireEndpointsAt(config, 'https://a.example')).toThrow(/end_session_endpoint/);
  });
});

describe('login --timeout', () => {
  it('longer than a timer holds (about 24 days): refused (exit 2), not a sign-in that fails at once', async () => {
    const env = await signedIn();
    const result = await run(['login', '--no-browser', '--timeout', '2200000'], env);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe('error: --timeout must be between 1 and 2147483, got 2200000\n');
    expect(atHome).toEqual([]);
  });
});

describe('a refresh, once its refresh token is sent', () => {
  it('Ctrl-C while the answer is on its way: the rotated pair is still kept; the request it was for is not sent (130)', async () => {
    const env = await signedIn();
    const before = await stored(env);
    const expired = { ...before, expires_at: new Date(Date.now() - 60_000).toISOString() };
    await writeFile(
      join(env.CLINIC_CONFIG_DIR as string, 'credentials.json'),
      JSON.stringify({ default: expired }),
      {
        mode: 0o600,
      },
    );
    tokenDelayMs = 300;
    const interrupt = new AbortController();
    setTimeout(() => interrupt.abort(), 100);
    const result = await runInProcess(['account'], { env, deps: { signal: interrupt.signal } });
    expect(atHome.map((hit) => hit.path)).toContain('/oauth/token');
    expect(await stored(env)).toMatchObject({ access_token: 'at-2', refresh_token: 'rt-2' });
    expect(result.code, result.stderr).toBe(130);
    expect(atHome.map((hit) => hit.path)).not.toContain('/api/v1/account');
  });

  it('keeps who signed in (login says when the next sign-in is someone else)', async () => {
    const env = await signedIn();
    const before = await stored(env);
    await writeFile(
      join(env.CLINIC_CONFIG_DIR as string, 'credentials.json'),
      JSON.stringify({ default: { ...before, user: 'ada <ada@x.test>' } }),
      { mode: 0o600 },
    );
    expect((await run(['auth', 'refresh'], env)).code).toBe(0);
    expect(await stored(env)).toMatchObject({ access_token: 'at-2', user: 'ada <ada@x.test>' });
  });

  it('an access token with a line break or a space is refused (exit 3: sign in again), not stored to fail every request after', async () => {
    const env = await signedIn();
    tokenAnswer = JSON.stringify({
      access_token: 'at-2\r\nX-Evil: 1',
      refresh_token: 'rt-2',
      token_type: 'Bearer',
    });
    const result = await run(['auth', 'refresh'], env);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      'the sign-in server answered an access token with spaces or control characters',
    );
    expect((await stored(env))?.access_token).toBe('at-1');
  });
});

describe('a token answer with an unusable expires_in', () => {
  it.each([1e20, -5, 'abc', null, '-1', true])(
    'refresh keeps the new tokens (expires_in %j), without an expiry',
    async (value) => {
      const env = await signedIn();
      tokenAnswer = tokens(value);
      const result = await run(['auth', 'refresh'], env);
      expect(result.stderr).not.toContain('error');
      expect(result.code).toBe(0);
      const after = await stored(env);
      expect(after).toMatchObject({ access_token: 'at-2', refresh_token: 'rt-2' });
      expect(after?.expires_at).toBeUndefined();
    },
  );

  it('login keeps them too', async () => {
    const env = await signedIn();
    tokenAnswer = tokens(1e20);
    const result = await run(login, env);
    expect(result.code).toBe(0);
    const after = await stored(env);
    expect(after?.access_token).toBe('at-2');
    expect(after?.expires_at).toBeUndefined();
  });

  it('a usable one, a number or a numeric string, is kept', async () => {
    const env = await signedIn();
    tokenAnswer = tokens('120');
    expect((await run(['auth', 'refresh'], env)).code).toBe(0);
    const after = await stored(env);
    const lifetime = Date.parse(after?.expires_at ?? '') - Date.parse(after?.obtained_at ?? '');
    expect(lifetime).toBeGreaterThan(115_000);
    expect(lifetime).toBeLessThanOrEqual(120_000);
  });

  it('toStoredCredentials never throws on one', () => {
    for (const value of [1e20, Number.MAX_VALUE, Infinity, -5, Number.NaN, 'abc', undefined]) {
      const credentials = toStoredCredentials(
        { access_token: 'a', refresh_token: 'r', expires_in: value as number },
        FAKE_START,
      );
      expect(credentials).toMatchObject({ access_token: 'a', refresh_token: 'r', expires_at: undefined });
    }
    expect(expiryAfter(FAKE_START, 60)).toBe(new Date(FAKE_START + 60_000).toISOString());
    expect(expiryAfter(FAKE_START, 2)).toBe(new Date(FAKE_START + 2_000).toISOString());
    // Under 2 s (0, or 1 rounded down): no expiry, so not counted as expiring on every request (used until a 401).
    for (const short of [0, 1, 1.9]) expect(expiryAfter(FAKE_START, short)).toBeUndefined();
  });
});
