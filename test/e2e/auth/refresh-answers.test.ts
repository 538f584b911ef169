// A refresh against a token endpoint that answers badly, end to end: a local server is both the sign-in server and a
// small paged API, and `customers list --all` runs against it as a user would. An answer that refuses the refresh or
// is no usable token ends in exit 3 with one error line and the way to sign in again; a token endpoint that fails
// (5xx, 429), resets or never answers stays exit 1. A token whose lifetime is zero or tiny is used until the API
// answers 401, then refreshed once: never a refresh per request, never two at once.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StoredCredentials } from '../../../src/core/auth/credential-store.js';
import { type CliResult, lines, runCli, tempDir } from '../../helpers/cli.js';

/** Pages of `customers list --all` (one customer each). */
const PAGES = 8;

interface Answer {
  status?: number;
  type?: string;
  body: unknown;
}
type TokenAnswer = Answer | 'reset' | 'hang';

let server: Server;
let root: string;
let configDir: string;

/** How the token endpoint answers its nth request (from 1). */
let tokenAnswer: (n: number) => TokenAnswer;
let tokenRequests: number;
let tokensInFlight: number;
let mostTokensInFlight: number;
/** Tokens the API takes, with how many more requests each may make (server-side expiry); the rest get 401. */
let usesLeft: Map<string, number>;
/** Uses a token from the token endpoint is given. */
let usesPerToken: number;
let unauthorized: number;
/** How long a page takes, so that a run lasts past a 1 s lifetime. */
let pageDelayMs: number;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function send(res: ServerResponse, { status = 200, type = 'application/json', body }: Answer): void {
  res.writeHead(status, { 'content-type': type }).end(typeof body === 'string' ? body : JSON.stringify(body));
}

async function token(res: ServerResponse): Promise<void> {
  const answer = tokenAnswer(++tokenRequests);
  tokensInFlight++;
  mostTokensInFlight = Math.max(mostTokensInFlight, tokensInFlight);
  try {
    await delay(50); // long enough for requests alongside to ask for one too
    if (answer === 'hang') return;
    if (answer === 'reset') return void res.socket?.destroy();
    const issued = (answer.body as { access_token?: unknown } | null)?.access_token;
    if ((answer.status ?? 200) === 200 && typeof issued === 'string') usesLeft.set(issued, usesPerToken);
    send(res, answer);
  } finally {
    tokensInFlight--;
  }
}

async function customers(req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> {
  await delay(pageDelayMs);
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
  const left = usesLeft.get(bearer) ?? 0;
  if (left <= 0) {
    unauthorized++;
    return send(res, { status: 401, body: { message: 'Unauthenticated.' } });
  }
  usesLeft.set(bearer, left - 1);
  const page = Number(url.searchParams.get('page') ?? 1);
  send(res, {
    body: {
      data: [{ id: page, first_name: `Customer ${page}` }],
      meta: { current_page: page, last_page: PAGES, per_page: 1, total: PAGES },
    },
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    req.resume().on('end', () => {
      if (url.pathname === '/.well-known/openid-configuration')
        return send(res, {
          body: {
            issuer: root,
            authorization_endpoint: `${root}/oauth/authorize`,
            token_endpoint: `${root}/oauth/token`,
          },
        });
      if (url.pathname === '/oauth/token') return void token(res);
      if (url.pathname === '/api/v1/customers') return void customers(req, url, res);
      send(res, { status: 404, body: { message: 'Not found.' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  configDir = join(await tempDir('clinic-refresh-answers-'), 'config');
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const profile = {
    base_url: `${root}/api`,
    auth_url: root,
    client_id: 'clinic-cli',
    tenant: '1',
    credential_store: 'file',
  };
  const config = join(configDir, 'config.json');
  await writeFile(config, JSON.stringify({ current_profile: 'p', profiles: { p: profile } }));
  await chmod(config, 0o600);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const credentialsFile = () => join(configDir, 'credentials.json');

/** Profile p's stored sign-in: access token `stored` (refresh token `rt-0`), expired an hour after it was obtained. */
async function storeSignIn(changes: Partial<StoredCredentials> = {}): Promise<void> {
  const now = Date.now();
  const signIn: StoredCredentials = {
    kind: 'oauth',
    access_token: 'stored',
    refresh_token: 'rt-0',
    token_type: 'bearer',
    obtained_at: new Date(now - 3_601_000).toISOString(),
    expires_at: new Date(now - 1000).toISOString(),
    origins: { base_url: root, auth_url: root },
    ...changes,
  };
  await writeFile(credentialsFile(), JSON.stringify({ p: signIn }), { mode: 0o600 });
}

const stored = async (): Promise<StoredCredentials> =>
  (JSON.parse(await readFile(credentialsFile(), 'utf8')) as { p: StoredCredentials }).p;

beforeEach(async () => {
  tokenRequests = 0;
  tokensInFlight = 0;
  mostTokensInFlight = 0;
  usesLeft = new Map();
  usesPerToken = Infinity;
  unauthorized = 0;
  pageDelayMs = 0;
  await storeSignIn();
});

/** `clinic customers list --all -o csv` (CSV: no JSON copy of an error on stderr), with `args` before it. */
const exportAll = (args: string[] = []): Promise<CliResult> =>
  runCli(configDir, [...args, 'customers', 'list', '--all', '-o', 'csv']);

const customerIds = (result: CliResult) =>
  lines(result.stdout)
    .slice(1)
    .map((row) => row.split(',')[0]);
const ALL_IDS = Array.from({ length: PAGES }, (_, i) => String(i + 1));

/** A good token answer: access token at-N, refresh token rt-N, with `extra` members. */
const tokens =
  (extra: Record<string, unknown> = {}) =>
  (n: number): Answer => ({
    body: { access_token: `at-${n}`, token_type: 'Bearer', refresh_token: `rt-${n}`, ...extra },
  });

const refused = (why: string) => [
  `error: could not refresh the sign-in of profile p: the sign-in server ${why}`,
  'run: clinic login',
];

describe('a refresh the sign-in server refuses, or answers with no usable token: exit 3, sign in again', () => {
  const cases: [string, Answer, string][] = [
    [
      'a 200 without access_token',
      { body: { token_type: 'Bearer', expires_in: 3600 } },
      'answered no usable token (access_token must be a string)',
    ],
    [
      'a 200 with token_type mac',
      { body: { access_token: 'at-1', token_type: 'mac' } },
      'answered a token of type "mac", not bearer',
    ],
    [
      'a 200 that is HTML',
      { type: 'text/html', body: '<html>\u001b]0;owned\u0007Sign in</html>' },
      'answered something other than JSON (Content-Type text/html)',
    ],
    [
      'a 200 whose JSON does not parse',
      { body: '{"access_token": "at-1",' },
      'answered JSON that does not parse',
    ],
    [
      'invalid_grant, its description carrying escape sequences',
      {
        status: 400,
        body: { error: 'invalid_grant', error_description: 'grant \u001b[2J\u001b[31mrevoked\u009b\u202e' },
      },
      // Each control character shown as `?`, never sent to the terminal.
      'refused it (HTTP 400 invalid_grant: grant ?[2J?[31mrevoked??)',
    ],
    [
      'a 400 with another OAuth error',
      { status: 400, body: { error: 'invalid_client' } },
      'refused it (HTTP 400 invalid_client)',
    ],
    [
      'a 400 without an OAuth error',
      { status: 400, type: 'text/plain', body: 'no' },
      'refused it (HTTP 400)',
    ],
  ];

  it.each(cases)('%s', async (_name, answer, why) => {
    tokenAnswer = () => answer;
    const result = await exportAll();
    expect(result.code).toBe(3);
    expect(lines(result.stderr)).toEqual(refused(why));
    expect(result.stdout).toBe('');
    expect(tokenRequests).toBe(1);
    // Nothing half-kept: the sign-in as it was, for `clinic login` to replace.
    expect(await stored()).toMatchObject({ access_token: 'stored', refresh_token: 'rt-0' });
  });

  it('after a 401 too (a token the API no longer takes, not yet expired here)', async () => {
    await storeSignIn({ expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    tokenAnswer = () => ({ status: 400, body: { error: 'invalid_grant' } });
    const result = await exportAll();
    expect(result.code).toBe(3);
    expect(lines(result.stderr)).toEqual(refused('refused it (HTTP 400 invalid_grant)'));
    expect([unauthorized, tokenRequests]).toEqual([1, 1]);
  });

  it.each([180, 990, 5000])(
    'a description that echoes the refresh token at character %i: none of it shows, in text or in JSON',
    async (at) => {
      const secret = `refresh-SECRET-${'k'.repeat(48)}`;
      await storeSignIn({ refresh_token: secret });
      const description = `${'d'.repeat(at)}${secret} and more`;
      tokenAnswer = () => ({ status: 400, body: { error: 'invalid_grant', error_description: description } });
      for (const output of [[], ['-o', 'json']]) {
        const result = await runCli(configDir, ['customers', 'list', '--all', ...output]);
        expect(result.code).toBe(3);
        expect(result.stderr + result.stdout).not.toContain('refresh-SEC');
        expect(result.stderr + result.stdout).not.toContain('kkkkkkkk');
      }
    },
  );

  it('with requests in flight together (--concurrency 4), still one refresh and one line', async () => {
    // Page 1 goes alone; its answer (pages 1-8) starts the rest together, each answered 401 for a token revoked.
    await storeSignIn({ expires_at: undefined, obtained_at: undefined });
    usesLeft.set('stored', 1);
    tokenAnswer = () => ({ status: 400, body: { error: 'invalid_grant' } });
    const result = await exportAll(['--concurrency', '4']);
    expect(result.code).toBe(3);
    expect(lines(result.stderr)).toEqual(refused('refused it (HTTP 400 invalid_grant)'));
    expect(tokenRequests).toBe(1);
  });
});

describe('a token endpoint that fails, resets or never answers: exit 1, or 9 as the API (a new sign-in would not help)', () => {
  const cases: [string, TokenAnswer, string, number][] = [
    ['a 500', { status: 500, type: 'text/plain', body: 'oops' }, 'answered HTTP 500; try again later', 1],
    [
      'a 500 with an OAuth error',
      { status: 500, body: { error: 'server_error' } },
      'answered HTTP 500; try again later',
      1,
    ],
    // Unavailable and rate limited: exit 9, as the contract has it for the API's 503 and 429.
    [
      'a 503',
      { status: 503, body: { error: 'temporarily_unavailable' } },
      'answered HTTP 503; try again later',
      9,
    ],
    ['a 429', { status: 429, body: { error: 'slow_down' } }, 'answered HTTP 429; try again later', 9],
  ];

  it.each(cases)('%s', async (_name, answer, why, code) => {
    tokenAnswer = () => answer;
    const result = await exportAll();
    expect(result.code).toBe(code);
    expect(lines(result.stderr)).toEqual([`error: could not refresh the sign-in: the sign-in server ${why}`]);
    expect(tokenRequests).toBe(1);
    expect(await stored()).toMatchObject({ access_token: 'stored', refresh_token: 'rt-0' });
  });

  it('a connection reset', async () => {
    tokenAnswer = () => 'reset';
    const result = await exportAll();
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      `error: could not refresh the sign-in: cannot reach ${root}: connection reset`,
    ]);
  });

  it('no answer within --request-timeout', async () => {
    tokenAnswer = () => 'hang';
    const result = await exportAll(['--request-timeout', '1']);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      `error: could not refresh the sign-in: ${root}/oauth/token: no complete answer within 1s`,
    ]);
  });
});

describe('a new token with no usable lifetime: used until the API answers 401, one refresh per 401', () => {
  const lifetimes: [string, Record<string, unknown>][] = [
    ['expires_in 0', { expires_in: 0 }],
    ['expires_in 1', { expires_in: 1 }],
    ['expires_in 1.9', { expires_in: 1.9 }],
    ['expires_in "0"', { expires_in: '0' }],
    ['expires_in -30', { expires_in: -30 }],
    ['expires_in 1e20', { expires_in: 1e20 }],
    ['no expires_in', {}],
  ];

  it.each(lifetimes)('%s: one refresh for a whole export', async (_name, extra) => {
    pageDelayMs = 150; // 8 pages: past the 1 s lifetime, and past twice a 0.5 s refresh margin
    tokenAnswer = tokens(extra);
    const result = await exportAll();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(customerIds(result)).toEqual(ALL_IDS);
    expect(tokenRequests).toBe(1);
    const after = await stored();
    expect(after).toMatchObject({ access_token: 'at-1', refresh_token: 'rt-1' });
    expect(after.expires_at).toBeUndefined();
  });

  it('expires_in 2 and up is planned on: refreshed before it runs out, half its lifetime apart at most', async () => {
    pageDelayMs = 400; // 8 pages: 3.2 s, past the first token's 2 s
    tokenAnswer = tokens({ expires_in: 2 });
    const result = await exportAll();
    expect(result.code, result.stderr).toBe(0);
    expect(customerIds(result)).toEqual(ALL_IDS);
    // The expired one at the start, then one a second or so: never one a page, never a 401.
    expect(tokenRequests).toBeGreaterThanOrEqual(2);
    expect(tokenRequests).toBeLessThanOrEqual(5);
    expect(unauthorized).toBe(0);
    expect((await stored()).expires_at).toEqual(expect.any(String));
  });

  it('expires_in 0, with 4 requests in flight together: one refresh, never two at once', async () => {
    tokenAnswer = tokens({ expires_in: 0 });
    const result = await exportAll(['--concurrency', '4']);
    expect(result.code, result.stderr).toBe(0);
    expect(customerIds(result)).toEqual(ALL_IDS);
    expect([tokenRequests, mostTokensInFlight]).toEqual([1, 1]);
  });

  it('expires_in 0 from a server that takes each token for 3 requests: a refresh per 401, no more', async () => {
    usesPerToken = 3;
    tokenAnswer = tokens({ expires_in: 0 });
    const result = await exportAll(['--concurrency', '1']);
    expect(result.code, result.stderr).toBe(0);
    expect(customerIds(result)).toEqual(ALL_IDS);
    // The stored token expired: refresh 1 (pages 1-3); 401, refresh 2 (pages 4-6); 401, refresh 3 (pages 7-8).
    expect([unauthorized, tokenRequests]).toEqual([2, 3]);
  });

  it('a new token the API refuses at once: a refresh for the 401, then exit 3 (no loop)', async () => {
    usesPerToken = 0;
    tokenAnswer = tokens({ expires_in: 0 });
    const result = await exportAll();
    expect(result.code).toBe(3);
    expect(lines(result.stderr)).toEqual([
      'error: Unauthenticated. (HTTP 401)',
      'run: clinic login (the token was rejected)',
    ]);
    // The stored token expired: refresh 1; its token answered 401: refresh 2; that one answered 401 too: the end.
    expect([tokenRequests, unauthorized]).toEqual([2, 2]);
  });

  it('a sign-in stored by an earlier version with expires_in 0 (expires_at = obtained_at) loads, and refreshes once', async () => {
    const at = new Date(Date.now() - 5000).toISOString();
    await storeSignIn({ obtained_at: at, expires_at: at });
    tokenAnswer = tokens({ expires_in: 0 });
    const result = await exportAll();
    expect(result.code, result.stderr).toBe(0);
    expect(customerIds(result)).toEqual(ALL_IDS);
    expect(tokenRequests).toBe(1);
  });

  it('a usable lifetime is still planned on: refreshed before it runs out, not on a 401', async () => {
    tokenAnswer = tokens({ expires_in: 3600 });
    const result = await exportAll();
    expect(result.code, result.stderr).toBe(0);
    expect([tokenRequests, unauthorized]).toEqual([1, 0]);
    const after = await stored();
    const lifetime = Date.parse(after.expires_at ?? '') - Date.parse(after.obtained_at ?? '');
    expect(lifetime).toBe(3_600_000); // the stated lifetime exactly, not counted down to whole seconds
  });
});
