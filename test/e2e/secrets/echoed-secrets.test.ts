// A server that echoes the token back in every field of its error answers (message, errors, code, next step,
// headers; as it is, URL-encoded, JSON-escaped): nothing of it reaches stderr, in table or JSON mode, with or
// without --debug, and after a failed or a successful refresh. Data on stdout stays exactly as the server sent it.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, runCli, tempDir } from '../../helpers/cli.js';

/** Tokens whose printed forms differ: `/`, `+`, `=`, `|` and `~` are escaped or encoded differently by each. */
const TOKEN = 'clinic_pat_ECHO/ed+Token=0123|4567~89abcdef';
const ACCESS = 'eyJhbGciOi.ACCESS/old+tok=en|0123456789~abc';
const REFRESH = 'def50200REFRESH/old+tok=en|0123456789~xyz';
const NEW_ACCESS = 'eyJhbGciOi.ACCESS/NEW+tok=en|9876543210~abc';
const NEW_REFRESH = 'def50200REFRESH/NEW+tok=en|9876543210~xyz';

/** Every way a server could print a secret: as it is, URL-encoded (upper and lower hex), JSON with `\/`, upper case. */
function printedForms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  return [secret, encoded, encoded.toLowerCase(), secret.replaceAll('/', '\\/'), secret.toUpperCase()];
}

/** One text holding the secrets in all their forms. */
const echo = (secrets: string[]) => `echo: ${secrets.flatMap(printedForms).join(' , ')}`;

/** An error body in the API's shapes with the secrets in every field (keys of `errors` too). */
function echoBody(status: number, secrets: string[]): string {
  const text = echo(secrets);
  const body = {
    success: false,
    message: `${status}: ${text}`,
    error: text,
    error_code: status === 428 ? 'SETUP_REQUIRED' : text,
    errors: Object.fromEntries(secrets.map((s) => [s, [text, { nested: text }]])),
    data: { message: text, next_step: text },
  };
  // PHP's json_encode escapes slashes: the body carries that form too.
  return JSON.stringify(body).replaceAll('/', '\\/');
}

let api: Server;
let port = 0;
let root: string;
let configDir: string;
/** How the API answers a request, by the bearer token it carries. */
let answer: (req: IncomingMessage, res: ServerResponse, token: string) => void;
const seenTokens: string[] = [];

function reply(res: ServerResponse, status: number, body: string, secrets: string[], challenge = true): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-echo': secrets.join(' '),
    'x-echo-encoded': secrets.map(encodeURIComponent).join(' '),
    ...(challenge ? { 'www-authenticate': `Bearer error="invalid_token", token="${secrets[0]}"` } : {}),
  });
  res.end(body);
}

beforeAll(async () => {
  api = createServer((req, res) => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    seenTokens.push(token);
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/oauth/token') return oauthToken(res, body);
      if (req.url?.startsWith('/.well-known/')) return reply(res, 404, '{"message":"Not found."}', []);
      answer(req, res, token);
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  port = (api.address() as AddressInfo).port;
  root = await tempDir('clinic-echoed-secrets-');
  configDir = join(root, 'config');
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const profile = {
    base_url: `http://127.0.0.1:${port}/api`,
    auth_url: `http://127.0.0.1:${port}`,
    client_id: 'clinic-cli',
    tenant: '1',
  };
  await writeFile(
    join(configDir, 'config.json'),
    JSON.stringify({ current_profile: 'echo', profiles: { echo: profile } }),
    { mode: 0o600 },
  );
});

afterAll(async () => {
  api.closeAllConnections();
  await new Promise((resolve) => api.close(resolve));
  await rm(root, { recursive: true, force: true });
});

beforeEach(() => {
  seenTokens.length = 0;
});

/** The OAuth server: a refresh fails echoing both tokens, or succeeds with a new pair (see `refreshWorks`). */
let refreshWorks = false;
function oauthToken(res: ServerResponse, form: string): void {
  const sent = new URLSearchParams(form).get('refresh_token') ?? '';
  if (!refreshWorks) {
    const text = echo([sent, ACCESS, REFRESH]);
    const body = JSON.stringify({ error: `invalid_grant ${text}`, error_description: text, hint: text });
    // (No challenge header here: openid-client would report it as a network failure, exit 1.)
    return reply(res, 400, body, [REFRESH, ACCESS], false);
  }
  const pair = {
    access_token: NEW_ACCESS,
    refresh_token: NEW_REFRESH,
    token_type: 'Bearer',
    expires_in: 3600,
  };
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(pair));
}

/** A stored OAuth sign-in (the file store), fresh for each run. */
async function storeSignIn(): Promise<void> {
  const now = Date.now();
  const credentials = {
    echo: {
      kind: 'oauth',
      access_token: ACCESS,
      refresh_token: REFRESH,
      token_type: 'bearer',
      obtained_at: new Date(now).toISOString(),
      expires_at: new Date(now + 3_600_000).toISOString(),
      scopes: ['openid', '*'],
    },
  };
  await writeFile(join(configDir, 'credentials.json'), JSON.stringify(credentials), { mode: 0o600 });
}

function clinic(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return runCli(configDir, ['--max-retries', '0', ...args], { env: { CLINIC_TOKEN: TOKEN, ...env } });
}

/** No form of any secret anywhere in the text. */
function expectClean(text: string, secrets: string[], what: string): void {
  const lower = text.toLowerCase();
  for (const secret of secrets)
    for (const form of printedForms(secret))
      expect(lower.includes(form.toLowerCase()), `${what}: ${form}`).toBe(false);
  // Nor a long piece of one (a form this list forgot).
  for (const secret of secrets) expect(text, what).not.toContain(secret.slice(0, 20));
}

const MODES: [string, string[]][] = [
  ['table', ['-o', 'table']],
  ['json', ['-o', 'json']],
  ['table --debug', ['-o', 'table', '--debug']],
  ['json --debug', ['-o', 'json', '--debug']],
];

/** `api` writes JSON only and refuses `-o table`: its human mode is the one without -o. */
function withMode(flags: string[], command: string[]): string[] {
  const human = command[0] === 'api' && flags[1] === 'table';
  return [...(human ? flags.slice(2) : flags), ...command];
}

describe('CLINIC_TOKEN echoed by error answers', () => {
  const exits: Record<number, number> = { 500: 1, 422: 7, 428: 8, 403: 4, 401: 3 };

  it.each([500, 422, 428, 403, 401])('HTTP %i: no trace of the token on stderr', async (status) => {
    answer = (_req, res) => reply(res, status, echoBody(status, [TOKEN]), [TOKEN]);
    for (const [mode, flags] of MODES) {
      for (const command of [
        ['api', '/v1/echo'],
        ['customers', 'get', '1'],
      ]) {
        const result = await clinic(withMode(flags, command));
        const what = `${status} ${mode} ${command.join(' ')}`;
        expect(result.code, what).toBe(exits[status]);
        expect(result.stderr, what).toMatch(/^error: /m);
        expectClean(result.stderr, [TOKEN], what);
        if (mode.startsWith('json')) expect(result.stderr, what).toMatch(/^\{"error":\{/m);
      }
    }
    expect(seenTokens.every((token) => token === TOKEN)).toBe(true);
  });

  it.each([400, 975, 1000])(
    'the token at character %i of a long message, where the error line is cut: none of it shows',
    async (at) => {
      const message = `${'m'.repeat(at)}${TOKEN} and more`;
      answer = (_req, res) =>
        reply(res, 422, JSON.stringify({ success: false, message, error_code: 'VALIDATION_ERROR' }), []);
      for (const [mode, flags] of MODES) {
        const result = await clinic([...flags, 'customers', 'get', '1']);
        expect(result.code, mode).toBe(7);
        expectClean(result.stderr, [TOKEN], `${mode} at ${at}`);
        expect(result.stderr, mode).not.toContain(TOKEN.slice(0, 12));
      }
    },
  );

  it('retry notices and a JSON error object stay clean too', async () => {
    answer = (_req, res) => reply(res, 503, echoBody(503, [TOKEN]), [TOKEN]);
    const result = await runCli(
      configDir,
      ['--max-retries', '1', '-o', 'json', '--debug', 'api', '/v1/echo'],
      {
        env: { CLINIC_TOKEN: TOKEN },
      },
    );
    expect(result.code).toBe(9);
    expect(result.stderr).toMatch(/retrying/);
    expectClean(result.stderr, [TOKEN], '503 with a retry');
  });

  it("doctor's report and a bulk run's result lines and journal carry no echoed token either", async () => {
    answer = (_req, res) => reply(res, 422, echoBody(422, [TOKEN]), [TOKEN]);
    for (const flags of [
      ['-o', 'table'],
      ['-o', 'json'],
    ]) {
      const doctor = await clinic([...flags, 'doctor']);
      expect(doctor.stdout, `doctor ${flags[1]}`).toMatch(/account/);
      expectClean(doctor.stdout + doctor.stderr, [TOKEN], `doctor ${flags[1]}`);
    }
    const input = join(root, 'echo.ndjson');
    await writeFile(input, '{"first_name":"Ada","last_name":"L"}\n{"first_name":"Bo","last_name":"M"}\n');
    const bulk = await clinic(['customers', 'create', '--from', input, '--restart']);
    expect(bulk.code).toBe(1);
    expect(bulk.stdout).toMatch(/"status":"error"/);
    expectClean(bulk.stdout + bulk.stderr, [TOKEN], 'bulk results');
    expectClean(await readFile(`${input}.journal`, 'utf8'), [TOKEN], 'bulk journal');
  });

  it('data on stdout is left as the server sent it, and auth token still prints the token', async () => {
    answer = (_req, res) => reply(res, 200, JSON.stringify({ echoed: TOKEN }), [TOKEN]);
    const body = await clinic(['api', '/v1/echo']);
    expect(body.code).toBe(0);
    expect(JSON.parse(body.stdout)).toEqual({ echoed: TOKEN });
    const token = await clinic(['auth', 'token']);
    expect(token.stdout).toBe(`${TOKEN}\n`);
  });
});

describe('a stored sign-in: 401, then a refresh', () => {
  const signIn = { CLINIC_TOKEN: undefined, CLINIC_CREDENTIAL_STORE: 'file' };

  it('a failed refresh whose OAuth error echoes both tokens: exit 3, neither on stderr', async () => {
    refreshWorks = false;
    answer = (_req, res, token) => reply(res, 401, echoBody(401, [token, ACCESS, REFRESH]), [token, REFRESH]);
    for (const [mode, flags] of MODES) {
      await storeSignIn();
      const result = await clinic(withMode(flags, ['api', '/v1/echo']), signIn);
      expect(result.code, `${mode}: ${result.stderr}`).toBe(3);
      expectClean(result.stderr, [ACCESS, REFRESH], `failed refresh, ${mode}`);
    }
  });

  it('after a refresh, an answer echoing the new pair (and the old) shows none of them', async () => {
    refreshWorks = true;
    answer = (_req, res, token) => {
      // The old pair until the refresh; then every token this run has held.
      if (token === ACCESS) return reply(res, 401, echoBody(401, [ACCESS, REFRESH]), [ACCESS, REFRESH]);
      const secrets = [ACCESS, REFRESH, NEW_ACCESS, NEW_REFRESH];
      reply(res, 500, echoBody(500, secrets), secrets);
    };
    for (const [mode, flags] of MODES) {
      await storeSignIn();
      const result = await clinic(withMode(flags, ['api', '/v1/echo']), signIn);
      expect(result.code, mode).toBe(1);
      expect(seenTokens).toContain(NEW_ACCESS);
      expectClean(result.stderr, [ACCESS, REFRESH, NEW_ACCESS, NEW_REFRESH], `after a refresh, ${mode}`);
    }
  });
});
