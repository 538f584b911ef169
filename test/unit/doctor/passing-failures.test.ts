// Failures that may pass (a 503, a 429, a reset, a timeout, an answer cut off) against failures of the setup (401, 403,
// a wrong base_url, DNS, a refused connection): each check tells them apart, and for the first kind never sends the
// user to their config or to sign in again.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRecord, summary } from '../../../src/commands/doctor/render.js';
import type { CredentialStore, StoredCredentials } from '../../../src/core/auth/credential-store.js';
import { refreshFailure } from '../../../src/core/auth/refresh-failure.js';
import { Session } from '../../../src/core/auth/session.js';
import { systemClock } from '../../../src/core/clock.js';
import { Settings } from '../../../src/core/config/settings.js';
import { accountCheck, rateLimitCheck, tenantSetupCheck } from '../../../src/core/doctor/api-checks.js';
import type { CheckResult, DoctorDeps, Findings } from '../../../src/core/doctor/check.js';
import { tokenCheck } from '../../../src/core/doctor/credential-checks.js';
import { passingFailure, passingFix, plainWords } from '../../../src/core/doctor/passing.js';
import { baseUrlCheck, clockSkewCheck } from '../../../src/core/doctor/reach-checks.js';
import { realtimeCheck } from '../../../src/core/doctor/realtime-check.js';
import {
  ApiError,
  AuthError,
  NetworkError,
  ServerFailureError,
  UnreachableError,
  UsageError,
} from '../../../src/core/errors.js';
import { HttpClient } from '../../../src/core/http/client.js';
import { type HttpTransport, NodeTransport } from '../../../src/core/http/transport.js';
import { CUT_OFF } from '../../../src/core/http/transport/exchange.js';
import { type FakeAnswer, FakeTransport } from '../../helpers/fake-transport.js';
import { fakePusherServer } from '../../helpers/fake-pusher.js';

/** Advice that sends the user to their setup: what a failure that may pass must never get. */
const SETUP_ADVICE = /login|sign in|config|base_url|auth_url|scope|tenants use|realtime\.|clock|chmod/i;

/** A line that says the server failed for a moment, not the setup, and to run doctor again. */
function expectPassing(result: CheckResult, status: 'fail' | 'warn' = 'fail') {
  expect(result.status, result.detail).toBe(status);
  expect(result.transient).toBe(true);
  expect(result.detail).toMatch(/failed for a moment|may pass/);
  expect(result.detail).toMatch(/not (a problem of )?your setup/);
  expect(result.fix).toMatch(
    /^nothing to change: (run doctor again in a moment|wait .+, then run doctor again)/,
  );
  // The detail may quote the server (`Invalid scope(s)` on a 429) or name the token: the advice is the fix.
  expect(result.fix).not.toMatch(SETUP_ADVICE);
}

/** A line of a setup failure: not marked as one that may pass. */
function expectSetup(result: CheckResult) {
  expect(result.status, result.detail).toBe('fail');
  expect(result.transient).toBeUndefined();
  expect(`${result.detail} ${result.fix}`).not.toMatch(/for a moment|may pass/);
}

const apiError = (
  status: number,
  message = `HTTP ${status}`,
  more: Partial<ConstructorParameters<typeof ApiError>[0]> = {},
) => new ApiError({ status, message, ...more });
const unreachable = (code: string | undefined) =>
  new UnreachableError('cannot reach https://api.example: something', undefined, code);

describe('which failures may pass', () => {
  it('5xx (but 501, 505, 511), 408 and 429 answers; never 4xx refusals', () => {
    for (const status of [500, 502, 503, 504, 507, 520, 599, 408, 429])
      expect(passingFailure(apiError(status)), String(status)).toMatchObject({ status });
    for (const status of [400, 401, 403, 404, 405, 409, 410, 422, 428, 501, 505, 511])
      expect(passingFailure(apiError(status)), String(status)).toBeUndefined();
  });

  it('resets, timeouts and answers cut off; never a refused connection, DNS or TLS', () => {
    for (const code of ['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'CLINIC_DEADLINE', CUT_OFF])
      expect(passingFailure(unreachable(code)), code).toEqual({ what: 'something' });
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'CERT_HAS_EXPIRED', 'EPROTO', undefined])
      expect(passingFailure(unreachable(code)), String(code)).toBeUndefined();
  });

  it('the sign-in server failing or unreachable for now, not refusing', () => {
    expect(passingFailure(new ServerFailureError('the sign-in server answered HTTP 503', 503))).toMatchObject(
      {
        status: 503,
      },
    );
    expect(passingFailure(new ServerFailureError('answered HTTP 501', 501))).toBeUndefined();
    for (const error of [
      new AuthError('refused', 'run: clinic login'),
      new NetworkError('unexpected response: the body is not JSON'),
      new NetworkError(
        'the server answered with a redirect (HTTP 302), which is not followed; check base_url',
      ),
      new UsageError('bad'),
      Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), // never ours: the client words them
      'a string',
      undefined,
    ])
      expect(passingFailure(error)).toBeUndefined();
  });

  it('the status decides, whatever the body says', () => {
    const sneaky = apiError(503, 'Unauthenticated. Invalid scope(s) provided. Check your base_url.');
    expect(passingFailure(sneaky)).toMatchObject({ status: 503 });
    expect(passingFailure(apiError(401, 'Service Unavailable. Try again later.'))).toBeUndefined();
    expect(passingFailure(apiError(429, 'Invalid scope(s) provided.'))).toMatchObject({ status: 429 });
  });

  it("the server's words are one clipped line without control characters", () => {
    const hostile = apiError(
      503,
      `\u001b[2J\u001b]0;pwned\u0007down\r\nfor\u202e maintenance ${'x'.repeat(5000)}`,
      {
        code: 'E\u001b[31mVIL',
      },
    );
    const { what } = passingFailure(hostile)!;
    expect(what).toMatch(/^HTTP 503 E \[31mVIL: \[2J ]0;pwned down for maintenance x+…$/);
    expect(what.length).toBeLessThan(200);
    expect(plainWords('a\u0000b\u009bc\u2066d')).toBe('a b c d');
  });

  it('a Retry-After is passed on when believable: whole seconds, at most a day', () => {
    const wait = (seconds: number | undefined) =>
      passingFailure(apiError(429, 'slow down', { retryAfterSeconds: seconds }))?.retryAfterSeconds;
    expect(wait(30)).toBe(30);
    expect(wait(0.2)).toBe(1);
    for (const absurd of [86_401, 1e12, Number.NaN, Number.POSITIVE_INFINITY, -5, undefined])
      expect(wait(absurd), String(absurd)).toBeUndefined();
    expect(passingFix({ what: '', status: 429, retryAfterSeconds: 30 })).toBe(
      "nothing to change: wait 30 s (the server's Retry-After), then run doctor again; every clinic process of this user shares the rate limit",
    );
    expect(passingFix({ what: '', status: 503, retryAfterSeconds: 300 })).toBe(
      "nothing to change: wait 5 min (the server's Retry-After), then run doctor again",
    );
    expect(passingFix({ what: '' })).toBe('nothing to change: run doctor again in a moment');
  });

  it('a refresh the sign-in server failed, or could not be sent for a reset, may pass; a refusal does not', () => {
    const failed = refreshFailure({ status: 503 }, 'p', 'run: clinic login');
    expect(failed).toBeInstanceOf(ServerFailureError);
    expect(failed.message).toBe(
      'could not refresh the sign-in: the sign-in server answered HTTP 503; try again later',
    );
    expect(passingFailure(failed)).toEqual({ what: 'the sign-in server answered HTTP 503', status: 503 });
    // Our fetch's failure inside openid-client's error (what the token endpoint's exchange throws).
    const reset = {
      code: 'CLINIC_OAUTH_EXCHANGE',
      message: 'cannot reach https://auth.example: connection reset',
    };
    const inner = new UnreachableError(reset.message, undefined, 'ECONNRESET');
    const lost = refreshFailure(
      Object.assign(new Error(reset.message), { ...reset, cause: inner }),
      'p',
      'x',
    );
    expect(lost.message).toBe(
      'could not refresh the sign-in: cannot reach https://auth.example: connection reset',
    );
    expect(passingFailure(lost)).toEqual({ what: 'connection reset' });
    const nowhere = new UnreachableError(
      'cannot reach https://auth.example: host not found',
      undefined,
      'ENOTFOUND',
    );
    expect(
      passingFailure(refreshFailure(Object.assign(new Error('x'), { cause: nowhere }), 'p', 'x')),
    ).toBeUndefined();
    const refused = refreshFailure({ status: 400, error: 'invalid_grant' }, 'p', 'run: clinic login');
    expect(refused).toBeInstanceOf(AuthError);
    expect(passingFailure(refused)).toBeUndefined();
  });
});

const BASE = 'https://api.example/api';

/** A profile `p` (chosen with --profile) on BASE with tenant 1, its token in CLINIC_TOKEN or in `stored`. */
function world(
  transport: HttpTransport,
  options: {
    stored?: StoredCredentials;
    env?: Record<string, string>;
    timeoutMs?: number;
    profile?: object;
  } = {},
) {
  const env = options.stored ? { ...options.env } : { CLINIC_TOKEN: 'tok', ...options.env };
  const profile = { base_url: BASE, tenant: '1', credential_store: 'file', ...options.profile };
  const settings = new Settings({ name: 'p', source: 'flag' }, { profiles: { p: profile } }, env);
  const store: CredentialStore = {
    kind: 'file',
    location: '/home/ada/.config/clinic/credentials.json',
    get: async () => options.stored,
    set: async () => {},
    delete: async () => false,
  };
  const session = new Session(settings, env, () => store, systemClock);
  const deps: DoctorDeps = {
    env,
    clock: systemClock,
    version: '0.0.0',
    globals: { requestTimeoutMs: options.timeoutMs ?? 2000 },
    config: async () => ({ profiles: { p: profile } }),
    settings: async () => settings,
    session: async () => session,
    store: () => store,
    http: async ({ maxRetries = 0, timeoutMs = options.timeoutMs ?? 2000 } = {}) =>
      new HttpClient({
        baseUrl: BASE,
        tenant: '1',
        userAgent: 't',
        tokens: session,
        transport,
        clock: systemClock,
        maxRetries,
        timeoutMs,
      }),
  };
  const found: Findings = { answers: 0, settings, baseUrl: BASE, stored: options.stored };
  return { deps, found, settings };
}

const ACCOUNT = { data: { id: 1, name: 'Ada', tenants: [{ id: 1, name: 'One' }] } };
const json = (status: number, body: unknown, headers: Record<string, string> = {}): FakeAnswer => ({
  status,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});
const networkError = (code: string) => Object.assign(new Error(`${code} (fake)`), { code });

/** Runs account, tenant-setup and rate-limit in order, as doctor does. */
async function apiChecks(transport: HttpTransport, options?: Parameters<typeof world>[1]) {
  const { deps, found } = world(transport, options);
  const account = await accountCheck.run(deps, found);
  const tenant = await tenantSetupCheck.run(deps, found);
  const rate = await rateLimitCheck.run(deps, found);
  return { account, tenant, rate, found };
}

describe('account, tenant-setup and rate-limit under a failure that may pass', () => {
  it.each([
    [
      'a 503 with Retry-After',
      json(503, { message: 'Service Unavailable.' }, { 'retry-after': '7' }),
      /HTTP 503: Service Unavailable\./,
    ],
    [
      'a 500 with an HTML page',
      { status: 500, body: '<html><h1>Oops\u001b[2J</h1></html>', headers: { 'content-type': 'text/html' } },
      /HTTP 500: server error/,
    ],
    ['a 502 with no body at all', { status: 502 }, /HTTP 502/],
    [
      'a 504 in the legacy shape',
      json(504, { success: false, error: 'gateway timeout', data: { message: 'upstream' } }),
      /HTTP 504/,
    ],
    [
      'a 429 saying "scope"',
      json(429, { message: 'Invalid scope(s) provided.' }, { 'retry-after': '2' }),
      /HTTP 429: Invalid scope/,
    ],
    ['a 408', json(408, { message: 'Request Timeout' }), /HTTP 408/],
    ['a reset', networkError('ECONNRESET'), /connection reset/],
    ['a broken pipe', networkError('EPIPE'), /EPIPE/],
  ] as const)(
    '%s on GET /v1/account: the account fails for a moment; the checks after it say so',
    async (_, answer, what) => {
      const transport = new FakeTransport().on('GET', '/api/v1/account', answer);
      const { account, tenant, rate } = await apiChecks(transport);
      expectPassing(account);
      expect(account.detail).toMatch(/^GET \/v1\/account failed for a moment: /);
      expect(account.detail).toMatch(what);
      // Not "tenant not set up", not "no answer from the API": skipped, and why.
      for (const later of [tenant, rate]) {
        expect(later.status).toBe('skip');
        expect(later.detail).toMatch(
          /^skipped: GET \/v1\/account failed for a moment \(.+\), so this cannot be told now$/,
        );
        expect(later.detail).not.toMatch(/not set up|setup incomplete|no answer from the API/);
      }
      transport.verify();
    },
  );

  it("a 503's Retry-After is the wait in the fix, and the JSON record says transient", async () => {
    const transport = new FakeTransport().on(
      'GET',
      '/api/v1/account',
      json(503, { message: 'down' }, { 'retry-after': '7' }),
    );
    const { account } = await apiChecks(transport);
    expect(account.fix).toBe("nothing to change: wait 7 s (the server's Retry-After), then run doctor again");
    expect(checkRecord(account)).toMatchObject({
      status: 'fail',
      transient: true,
      http_status: 503,
      retry_after_s: 7,
    });
  });

  it('a body cut off midway, and one that stops without a word: may pass', async () => {
    const aborted = new FakeTransport().on('GET', '/api/v1/account', {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: (function* () {
        yield Buffer.from('{"data":{"id"');
        throw networkError('ECONNRESET');
      })(),
    });
    expectPassing((await apiChecks(aborted)).account);
    // A body destroyed before its end, with no error: the reader's own "cut off".
    const silent: HttpTransport = {
      request: async () => ({
        statusCode: 200,
        headers: { 'content-type': 'application/json' },
        body: new Readable({
          read() {
            this.push('{"data":');
            this.destroy();
          },
        }),
      }),
      close: async () => {},
    };
    const { account } = await apiChecks(silent);
    expectPassing(account);
    expect(account.detail).toContain('was cut off');
  });

  it('no answer within the deadline: may pass', async () => {
    const server: Server = createServer(() => {}); // never answers
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      // The real transport and exchange, its deadline in play; the fake's routing is not needed.
      const real = new NodeTransport();
      const transport: HttpTransport = {
        request: (options) => real.request({ ...options, origin: `http://127.0.0.1:${port}` }),
        close: () => real.close(),
      };
      const { account } = await apiChecks(transport, { timeoutMs: 300 });
      expectPassing(account);
      expect(account.detail).toContain('no complete answer within 0.3s');
      await real.close();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('the account answers, then the tenant check meets a 502: that check alone fails for a moment', async () => {
    const transport = new FakeTransport()
      .on(
        'GET',
        '/api/v1/account',
        json(200, ACCOUNT, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '50' }),
      )
      .on('GET', '/api/v1/account-transaction-types', json(502, { message: 'Bad Gateway' }));
    const { account, tenant, rate } = await apiChecks(transport);
    expect(account.status).toBe('ok');
    expectPassing(tenant);
    expect(tenant.detail).toMatch(
      /^GET \/v1\/account-transaction-types failed for a moment: HTTP 502: Bad Gateway/,
    );
    expect(tenant.detail).not.toMatch(/setup incomplete|not found/);
    expect(rate).toMatchObject({ status: 'ok', detail: '50 of 60 requests left' });
  });
});

describe('account and tenant-setup under a real misconfiguration: the precise advice as before', () => {
  const stored: StoredCredentials = { kind: 'pat', access_token: 'bad-token', scopes: ['customers:read'] };

  it('401 with a stored token: sign in again', async () => {
    const transport = new FakeTransport().on(
      'GET',
      '/api/v1/account',
      json(401, { message: 'Unauthenticated.' }),
    );
    const { account, tenant } = await apiChecks(transport, { stored });
    expectSetup(account);
    expect(account).toMatchObject({
      detail: 'the token was rejected (HTTP 401: Unauthenticated.)',
      fix: 'run: clinic --profile p login',
    });
    expect(tenant.detail).toBe('skipped: GET /v1/account failed');
  });

  it('401 with CLINIC_TOKEN: replace the variable', async () => {
    const transport = new FakeTransport().on(
      'GET',
      '/api/v1/account',
      json(401, { message: 'Unauthenticated.' }),
    );
    const { account } = await apiChecks(transport);
    expectSetup(account);
    expect(account.fix).toBe(
      'the token in CLINIC_TOKEN was rejected: set CLINIC_TOKEN to a valid token (it is used as is, never refreshed)',
    );
  });

  it('403 for a missing scope: the scope advice', async () => {
    const transport = new FakeTransport()
      .on('GET', '/api/v1/account', json(200, ACCOUNT))
      .on('GET', '/api/v1/account-transaction-types', json(403, { message: 'Invalid scope(s) provided.' }));
    const { tenant } = await apiChecks(transport, { stored });
    expectSetup(tenant);
    expect(tenant.detail).toBe('refused (HTTP 403: Invalid scope(s) provided.)');
    expect(tenant.fix).toContain(
      'the token lacks a scope this request needs; sign in again with every scope',
    );
  });

  it('404 on GET /v1/account: base_url is not the API base', async () => {
    const transport = new FakeTransport().on('GET', '/api/v1/account', json(404, { message: 'Not Found' }));
    const { account } = await apiChecks(transport);
    expectSetup(account);
    expect(account.fix).toBe(`check base_url (${BASE}): it should be the API base, ending in /api`);
  });

  it('a 405 (another server at base_url): what it said, no "try again later"', async () => {
    const transport = new FakeTransport().on(
      'GET',
      '/api/v1/account',
      json(405, { message: 'Method Not Allowed' }),
    );
    const { account } = await apiChecks(transport);
    expectSetup(account);
    expect(account).toMatchObject({
      detail: 'GET /v1/account: HTTP 405: Method Not Allowed',
      fix: '--debug shows the exchange',
    });
  });

  it.each([
    ['host not found', 'ENOTFOUND'],
    ['connection refused', 'ECONNREFUSED'],
    ['a certificate', 'CERT_HAS_EXPIRED'],
  ])('%s: the network and base_url', async (_, code) => {
    const transport = new FakeTransport().on('GET', '/api/v1/account', networkError(code));
    const { account } = await apiChecks(transport);
    expectSetup(account);
    expect(account.fix).toBe('check the network and base_url; --debug shows the exchange');
  });

  it('a 428 on the tenant: the next step; a 404: tenants use; a tenant not in the account: tenants use', async () => {
    const setup = new FakeTransport().on('GET', '/api/v1/account', json(200, ACCOUNT)).on(
      'GET',
      '/api/v1/account-transaction-types',
      json(428, {
        error_code: 'SETUP_REQUIRED',
        message: 'Setup required',
        next_step: 'Add a billing address',
      }),
    );
    const { tenant } = await apiChecks(setup);
    expectSetup(tenant);
    expect(tenant.detail).toContain('setup incomplete (HTTP 428 SETUP_REQUIRED)');
    const gone = new FakeTransport()
      .on('GET', '/api/v1/account', json(200, ACCOUNT))
      .on('GET', '/api/v1/account-transaction-types', json(404, { message: 'Tenant not found' }));
    const missing = (await apiChecks(gone)).tenant;
    expectSetup(missing);
    expect(missing.fix).toBe('run: clinic --profile p tenants use ID-OR-SLUG');
    const other = new FakeTransport().on('GET', '/api/v1/account', json(200, ACCOUNT));
    const wrong = (await apiChecks(other, { profile: { tenant: '9' } })).tenant;
    expectSetup(wrong);
    expect(wrong.detail).toBe('tenant 9 is not one of your tenants (1)');
  });
});

describe('the token check when an expired sign-in is refreshed', () => {
  const expired: StoredCredentials = {
    kind: 'oauth',
    access_token: 'old',
    refresh_token: 'r',
    expires_at: new Date(Date.now() - 60_000).toISOString(),
    scopes: ['openid', '*'],
  };

  async function refreshing(failure: unknown) {
    const env = {};
    const profile = { base_url: BASE, auth_url: 'https://auth.example', credential_store: 'file' };
    const settings = new Settings({ name: 'p', source: 'flag' }, { profiles: { p: profile } }, env);
    const store: CredentialStore = {
      kind: 'file',
      location: '/c/credentials.json',
      get: async () => expired,
      set: async () => {},
      delete: async () => false,
    };
    const session = new Session(
      settings,
      env,
      () => store,
      systemClock,
      () => Promise.reject(failure),
    );
    const deps = {
      env,
      clock: systemClock,
      globals: { requestTimeoutMs: 1000 },
      session: async () => session,
      store: () => store,
    } as unknown as DoctorDeps;
    const found: Findings = { answers: 0, settings, baseUrl: BASE };
    return { result: await tokenCheck.run(deps, found), found };
  }

  it('the sign-in server failed (503) or the exchange was reset: for a moment; the API checks skip saying so', async () => {
    for (const failure of [
      refreshFailure({ status: 503 }, 'p', 'run: clinic --profile p login'),
      refreshFailure({ status: 429 }, 'p', 'run: clinic --profile p login'),
      new UnreachableError(
        'https://auth.example/oauth/token: no complete answer within 1s',
        undefined,
        'CLINIC_DEADLINE',
      ),
      new UnreachableError('cannot reach https://auth.example: connection reset', undefined, 'ECONNRESET'),
    ]) {
      const { result, found } = await refreshing(failure);
      expectPassing(result);
      expect(result.detail).toMatch(/expired \d+ s ago; its refresh failed for a moment: /);
      expect(found.noToken).toBe(
        'the token has expired, and the sign-in server failed for a moment to refresh it',
      );
    }
  });

  it('refused (invalid_grant): sign in again, as before', async () => {
    const { result } = await refreshing(
      refreshFailure({ status: 400, error: 'invalid_grant' }, 'p', 'run: clinic --profile p login'),
    );
    expectSetup(result);
    expect(result.fix).toBe('run: clinic --profile p login');
  });

  it('a sign-in server that cannot be found: auth_url and the network, not a new sign-in', async () => {
    const nowhere = new UnreachableError(
      'cannot reach https://auth.example: host not found',
      undefined,
      'ENOTFOUND',
    );
    const { result } = await refreshing(nowhere);
    expectSetup(result);
    expect(result.fix).toBe(
      'check auth_url (https://auth.example) and the network; --debug shows the exchange',
    );
  });
});

describe('base-url and clock-skew', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  /** A local server answering the probe with `handle`; the checks' deps and findings for it. */
  async function probing(handle: Parameters<typeof createServer>[1], timeoutMs = 2000) {
    server = createServer(handle);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    const deps = { clock: systemClock, version: '0', globals: { requestTimeoutMs: timeoutMs } } as DoctorDeps;
    const found: Findings = { answers: 0, baseUrl };
    const result = await baseUrlCheck.run(deps, found);
    const skew = await clockSkewCheck.run(deps, found);
    return { result, skew, found };
  }

  it('answered 503 or 429: reached, a warning that may pass, with the Retry-After; the clock is still compared', async () => {
    const unavailable = await probing((_req, res) => res.writeHead(503, { 'retry-after': '3' }).end());
    expectPassing(unavailable.result, 'warn');
    expect(unavailable.result.detail).toMatch(/answered HTTP 503 in \d+ ms \(.*\): a failure that may pass/);
    expect(unavailable.result.fix).toBe(
      "nothing to change: wait 3 s (the server's Retry-After), then run doctor again",
    );
    expect(unavailable.skew.status).toBe('ok');
    const limited = await probing((_req, res) => res.writeHead(429, { 'retry-after': 'soon' }).end());
    expectPassing(limited.result, 'warn');
    expect(limited.result.fix).toContain('run doctor again in a moment');
  });

  it('reset after connecting, or no answer in time: a failure that may pass; the API stays reachable for the checks after', async () => {
    for (const [handle, what] of [
      [(req: { socket: { destroy(): void } }) => req.socket.destroy(), 'connection reset'],
      [() => {}, 'no answer from 127.0.0.1'],
    ] as const) {
      const { result, skew, found } = await probing(handle as Parameters<typeof createServer>[1], 300);
      expectPassing(result);
      expect(result.detail).toContain(what);
      expect(found.unreachable).toBeUndefined(); // the account check still runs
      expect(skew.status).toBe('skip');
      expect(skew.detail).toMatch(
        /^skipped: no server time to compare with: the probe of 127\.0\.0\.1:\d+ failed for a moment/,
      );
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = undefined;
    }
  });

  it('a refused connection, a 404, a 501: the setup, as before', async () => {
    const notThere = await probing((_req, res) => res.writeHead(404).end());
    expect(notThere.result).toMatchObject({ status: 'warn' });
    expect(notThere.result.fix).toContain('ending in /api');
    expect(notThere.result.transient).toBeUndefined();
    const notApi = await probing((_req, res) => res.writeHead(501).end());
    expect(notApi.result).toMatchObject({ status: 'warn' });
    expect(notApi.result.fix).toContain('is the Clinic API');
    const portal = await probing((_req, res) => res.writeHead(511).end());
    expect(portal.result.detail).toContain('captive portal');
    const port = (server!.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const deps = { clock: systemClock, version: '0', globals: { requestTimeoutMs: 1000 } } as DoctorDeps;
    const found: Findings = { answers: 0, baseUrl: `http://127.0.0.1:${port}/api` };
    const refused = await baseUrlCheck.run(deps, found);
    expectSetup(refused);
    expect(refused.fix).toMatch(/^nothing listens at 127\.0\.0\.1:\d+/);
    expect(found.unreachable).toBe(`127.0.0.1:${port} cannot be reached`);
  });
});

describe('realtime: the channel authorization and the realtime server', () => {
  /** The realtime check against a fake Pusher server, its authorization answered by `auth`. */
  async function realtime(auth: FakeAnswer, hooks: Parameters<typeof fakePusherServer>[0] = {}) {
    const pusher = await fakePusherServer(hooks);
    const transport = new FakeTransport().on('POST', '/api/broadcasting/auth', auth, { persist: true });
    const profile = { realtime: { key: 'k', host: '127.0.0.1', port: String(pusher.port), tls: 'false' } };
    const { deps, found } = world(transport, { profile, timeoutMs: 1500 });
    return realtimeCheck.run(deps, found);
  }

  it('authorized: subscribed', async () => {
    expect((await realtime(json(200, { auth: 'k:sig' }))).status).toBe('ok');
  });

  it.each([
    ['a 503', json(503, { message: 'Service Unavailable.' }, { 'retry-after': '1' })],
    ['a 429', json(429, { message: 'Too Many Attempts.' })],
    ['a reset', networkError('ECONNRESET')],
  ])(
    '%s on the authorization: for a moment, not realtime.auth_endpoint, the tenant or the token',
    async (_, answer) => {
      const result = await realtime(answer);
      expectPassing(result);
      expect(result.detail).toMatch(
        /^authorizing private-chat-log\.1 \(POST https:\/\/api\.example\/api\/broadcasting\/auth\) failed for a moment: /,
      );
      expect(result.detail).not.toContain('may have been processed');
    },
  );

  it('a 403 on the authorization: the settings, the tenant and the token, as before', async () => {
    const result = await realtime(json(403, { message: 'This action is unauthorized.' }));
    expectSetup(result);
    expect(result.fix).toContain('check realtime.auth_endpoint');
  });

  it('the realtime server over capacity (4100): for a moment', async () => {
    const busy = await realtime(json(200, { auth: 'k:sig' }), {
      beforeHandshake: (socket) => {
        socket.send(
          JSON.stringify({ event: 'pusher:error', data: { code: 4100, message: 'Over capacity' } }),
        );
        socket.close(4100);
      },
    });
    expectPassing(busy);
    expect(busy.detail).toContain('4100 Over capacity');
  });

  it('an unknown app key (4001): the settings, as before', async () => {
    const unknown = await realtime(json(200, { auth: 'k:sig' }), {
      beforeHandshake: (socket) => {
        socket.send(
          JSON.stringify({
            event: 'pusher:error',
            data: { code: 4001, message: 'App key k not in this cluster' },
          }),
        );
        socket.close(4001);
      },
    });
    expectSetup(unknown);
    expect(unknown.detail).toBe(
      'the realtime server refused the connection (4001 App key k not in this cluster)',
    );
    expect(unknown.fix).toContain('realtime.key');
  });
});

describe('the summary on stderr', () => {
  const line = (name: string, status: CheckResult['status'], transient?: boolean): CheckResult => ({
    name,
    status,
    detail: '',
    ...(transient ? { transient } : {}),
  });

  it('tells failures that may pass from those of the setup', () => {
    expect(
      summary({
        checks: [
          line('base-url', 'warn', true),
          line('account', 'fail', true),
          line('realtime', 'fail', true),
        ],
      }),
    ).toBe(
      "2 of 3 checks failed for a moment, on the server's side: account, realtime (1 warning); run doctor again in a moment",
    );
    expect(summary({ checks: [line('token', 'fail'), line('account', 'fail', true)] })).toBe(
      "2 of 2 checks failed: token, account; account only for a moment, on the server's side",
    );
    expect(summary({ checks: [line('account', 'fail'), line('x', 'ok')] })).toBe(
      '1 of 2 checks failed: account',
    );
  });
});
