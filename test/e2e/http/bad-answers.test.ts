// Hostile or broken server answers: whatever the server sends, the CLI ends in time with the documented exit code,
// one clear `error:` line, no stack trace, no control character from the server on the terminal, and never shows
// the token. A fake API (node:http on 127.0.0.1) plays the server; a second one plays "another host".
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, CREATE_CUSTOMER, lines, runCli, tempDir } from '../../helpers/cli.js';

const TOKEN = 'clinic_pat_HOSTILEanswersTOKEN0123456789zyxw';
/** C0 (but tab and line feed), DEL, C1, and the bidi controls: none may reach the terminal. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, count: number) => void;

interface FakeServer {
  server: Server;
  port: number;
  seen: Seen[];
  handler: Handler;
  sockets: Set<Socket>;
}

async function startFake(): Promise<FakeServer> {
  const fake: FakeServer = {
    server: createServer(),
    port: 0,
    seen: [],
    handler: (_req, res) => json(res, 500, { message: 'no handler' }),
    sockets: new Set(),
  };
  fake.server.on('connection', (socket) => {
    fake.sockets.add(socket);
    socket.on('close', () => fake.sockets.delete(socket));
  });
  fake.server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      fake.seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      fake.handler(req, res, fake.seen.length);
    });
  });
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.port = (fake.server.address() as AddressInfo).port;
  return fake;
}

function reset(fake: FakeServer): void {
  for (const socket of fake.sockets) socket.destroy();
  fake.seen = [];
  fake.handler = (_req, res) => json(res, 500, { message: 'no handler' });
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  send(res, status, JSON.stringify(body), { 'content-type': 'application/json', ...headers });
}

function send(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

const CUSTOMER = { id: 1, first_name: 'Ada', last_name: 'Byron', email: 'ada@example.test' };

const LARAVEL_500 = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Server Error</title>
<style>${'body{font-family:sans-serif}'.repeat(200)}</style></head>
<body><div class="flex-center"><div class="code">500</div><div class="message">Server Error</div></div>
<pre>Illuminate\\Database\\QueryException: SQLSTATE[HY000] [2002] Connection refused
${Array.from({ length: 60 }, (_, i) => `    at App\\Http\\Controllers\\CustomerController->show() /var/www/app/Http/Controllers/CustomerController.php:${i}`).join('\n')}
#0 /var/www/vendor/laravel/framework/src/Illuminate/Routing/Controller.php(54): show()
</pre></body></html>`;

const HOSTILE_MESSAGE =
  '\u001b[2J\u001b[31mGONE\u001b[0m \u009b31m \u202eevil\u202c \u0007bell \u001b]0;pwned\u0007 \r\nerror: forged line';

let api: FakeServer;
let other: FakeServer;
let root: string;
let configDir: string;

beforeAll(async () => {
  api = await startFake();
  other = await startFake();
  root = await tempDir('clinic-bad-answers-');
  configDir = join(root, 'config');
});
afterEach(() => {
  reset(api);
  reset(other);
});
afterAll(async () => {
  for (const fake of [api, other]) {
    fake.server.closeAllConnections();
    await new Promise((resolve) => fake.server.close(resolve));
  }
  await rm(root, { recursive: true, force: true });
});

async function clinic(args: string[]): Promise<CliResult & { ms: number }> {
  const started = performance.now();
  const result = await runCli(configDir, args, {
    env: {
      CLINIC_BASE_URL: `http://127.0.0.1:${api.port}/api`,
      CLINIC_TOKEN: TOKEN,
      CLINIC_TENANT: '1',
    },
  });
  return { ...result, ms: performance.now() - started };
}

interface Case {
  name: string;
  args: string[] | ((dir: string) => string[]);
  serve: Handler;
  exit: number;
  /** The first stderr line (after `error: `) for failures. */
  first?: RegExp;
  /** Further stderr lines that must be there. */
  details?: RegExp[];
  stdout?: (stdout: string) => void;
  /** Requests the API server must have received. */
  requests?: number;
  /** Upper bound of the whole run (default 10 s). */
  withinMs?: number;
  atLeastMs?: number;
  /** Lines on stderr before the `error:` line (`clinic api` writes the server's body first). */
  skipLines?: number;
  /** Run with --debug (a stack trace is then allowed). */
  debug?: boolean;
  /** Extra checks, given the case's own scratch directory. */
  after?: (result: CliResult, dir: string) => void | Promise<void>;
}

const GET_1 = ['customers', 'get', '1'];
/** 100,000 nested arrays. */
const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
const SHORT = ['--request-timeout', '2', '--max-retries', '0'];

const cases: Case[] = [
  {
    name: '200 with truncated JSON',
    args: GET_1,
    serve: (_q, res) =>
      send(res, 200, '{"success":true,"data":{"id":1,"first_na', { 'content-type': 'application/json' }),
    exit: 1,
    first: /unexpected response .*not JSON/,
    stdout: (out) => expect(out).toBe(''),
  },
  {
    name: '200 with an HTML page',
    args: GET_1,
    serve: (_q, res) =>
      send(res, 200, '<!DOCTYPE html><html><body><h1>Welcome to nginx!</h1></body></html>', {
        'content-type': 'text/html',
      }),
    exit: 1,
    first: /unexpected response .*not JSON/,
    stdout: (out) => expect(out).toBe(''),
  },
  {
    name: '200 with an empty body',
    args: GET_1,
    serve: (_q, res) => send(res, 200, '', { 'content-type': 'application/json' }),
    exit: 1,
    first: /unexpected response/,
    stdout: (out) => expect(out).toBe(''),
  },
  {
    name: "200 with {} (no 'data')",
    args: GET_1,
    serve: (_q, res) => json(res, 200, {}),
    exit: 1,
    first: /unexpected response for customer 1: no 'data'/,
    stdout: (out) => expect(out).toBe(''),
  },
  {
    name: '200 with a JSON array where an object was expected',
    args: GET_1,
    serve: (_q, res) => json(res, 200, [CUSTOMER]),
    exit: 1,
    first: /unexpected response for customer 1/,
    stdout: (out) => expect(out).toBe(''),
  },
  {
    name: "a list answer whose 'data' is an object, not a list",
    args: ['customers', 'list'],
    serve: (_q, res) => json(res, 200, { success: true, data: CUSTOMER, meta: { last_page: 1 } }),
    exit: 1,
    first: /unexpected response from \/v1\/customers: no 'data' list/,
    stdout: (out) => expect(out).toBe(''),
  },
  {
    // The status decides success, never the body's `success` flag: the 200 is a success, its `data` is printed.
    name: '200 whose body is the legacy error shape (status wins: data printed, exit 0)',
    args: GET_1,
    serve: (_q, res) => json(res, 200, { success: false, error: 'x', data: { message: 'x' } }),
    exit: 0,
    stdout: (out) => expect(JSON.parse(out)).toEqual({ message: 'x' }),
  },
  {
    name: '422 with success:true (status wins: exit 7 with the field lines)',
    args: CREATE_CUSTOMER,
    serve: (_q, res) =>
      json(res, 422, {
        success: true,
        message: 'The given data was invalid.',
        errors: {
          email: ['The email field must be a valid email address.'],
          phone: ['The phone has already been taken.', 'The phone format is invalid.'],
        },
      }),
    exit: 7,
    first: /The given data was invalid\. \(HTTP 422\)/,
    details: [
      /^ {2}email: The email field must be a valid email address\.$/m,
      /^ {2}phone: The phone has already been taken\. The phone format is invalid\.$/m,
    ],
    requests: 1,
  },
  {
    name: '428 with success:true and data.next_step (exit 8, next step line)',
    args: GET_1,
    serve: (_q, res) =>
      json(res, 428, {
        success: true,
        error_code: 'SETUP_REQUIRED',
        message: 'The clinic setup is not complete.',
        errors: null,
        data: { next_step: 'Finish the setup at Settings > Clinic profile' },
      }),
    exit: 8,
    first: /The clinic setup is not complete\. \(HTTP 428 SETUP_REQUIRED\)/,
    details: [/^next step: Finish the setup at Settings > Clinic profile$/m],
  },
  {
    name: '500 SERVER_ERROR on a GET: retried, then exit 1',
    args: [...GET_1, '--max-retries', '1'],
    serve: (_q, res) =>
      json(res, 500, { success: false, error_code: 'SERVER_ERROR', message: 'Server error', data: null }),
    exit: 1,
    first: /Server error \(HTTP 500 SERVER_ERROR\)/,
    details: [/HTTP 500; retrying in 1s \(retry 1 of 1\)/],
    requests: 2,
    atLeastMs: 900,
  },
  {
    name: '500 on a POST: never retried, exit 1',
    args: CREATE_CUSTOMER,
    serve: (_q, res) =>
      json(res, 500, { success: false, error_code: 'SERVER_ERROR', message: 'Server error', data: null }),
    exit: 1,
    first: /Server error \(HTTP 500 SERVER_ERROR\)/,
    requests: 1,
  },
  {
    name: '503 with Retry-After 999999: exit 9 at once, saying when',
    args: GET_1, // default --max-retries 4: still not waited for
    serve: (_q, res) => json(res, 503, { message: 'Down for maintenance' }, { 'retry-after': '999999' }),
    exit: 9,
    first: /Down for maintenance \(HTTP 503\)/,
    details: [/come back in 999999s, at \d{4}-\d\d-\d\dT[\d:.]+Z; not waiting that long/],
    requests: 1,
    withinMs: 5000,
  },
  {
    name: '429 with a Retry-After date a day away: exit 9 at once, saying when',
    args: GET_1,
    serve: (_q, res) =>
      json(
        res,
        429,
        { message: 'Too Many Attempts.' },
        { 'retry-after': new Date(Date.now() + 86_400_000).toUTCString() },
      ),
    exit: 9,
    first: /Too Many Attempts\. \(HTTP 429\)/,
    details: [/rate limited: the server asks to come back in \d+s, at \d{4}-/],
    requests: 1,
    withinMs: 5000,
  },
  {
    name: '429 with Retry-After 1, then 200: waits, exit 0',
    args: GET_1,
    serve: (_q, res, count) =>
      count === 1
        ? json(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': '1' })
        : json(res, 200, { success: true, data: CUSTOMER }),
    exit: 0,
    details: [/HTTP 429; retrying in 1s/],
    stdout: (out) => expect(JSON.parse(out)).toEqual(CUSTOMER),
    requests: 2,
    atLeastMs: 900,
  },
  {
    name: '401 plain (exit 3 with a hint)',
    args: GET_1,
    serve: (_q, res) => json(res, 401, { message: 'Unauthenticated.' }),
    exit: 3,
    first: /Unauthenticated\. \(HTTP 401\)/,
    details: [/^hint: the token in CLINIC_TOKEN was rejected: set CLINIC_TOKEN to a valid token/m],
    requests: 1,
  },
  {
    name: '401 under --debug: exit 3, the token redacted in the trace',
    args: GET_1,
    debug: true,
    serve: (_q, res) => json(res, 401, { message: 'Unauthenticated.' }, { 'www-authenticate': 'Bearer' }),
    exit: 3,
    first: /Unauthenticated\. \(HTTP 401\)/,
    details: [/^debug: > authorization: Bearer \*\*\*$/m],
    requests: 1,
  },
  {
    name: '403 plain (exit 4)',
    args: GET_1,
    serve: (_q, res) => json(res, 403, { message: 'This action is unauthorized.' }),
    exit: 4,
    first: /This action is unauthorized\. \(HTTP 403\)/,
    // A role refusal: no scope name made up from the path, no advice to sign in with fewer scopes.
    details: [/^hint: your user's role in this clinic does not allow this: ask a clinic admin$/m],
  },
  {
    name: '404 legacy envelope (exit 5)',
    args: GET_1,
    serve: (_q, res) =>
      json(res, 404, { success: false, error: 'Not Found', data: { message: 'Customer not found' } }),
    exit: 5,
    first: /Customer not found \(HTTP 404\)/,
  },
  {
    name: '404 coded (exit 5)',
    args: GET_1,
    serve: (_q, res) =>
      json(res, 404, {
        success: false,
        error_code: 'RESOURCE_NOT_FOUND',
        message: 'Customer 1 does not exist.',
        errors: null,
        data: null,
      }),
    exit: 5,
    first: /Customer 1 does not exist\. \(HTTP 404 RESOURCE_NOT_FOUND\)/,
  },
  {
    name: '409 conflict (exit 6)',
    args: ['sales', 'stock-deduct', '3', '--yes'],
    serve: (_q, res) =>
      json(res, 409, {
        success: false,
        error_code: 'STOCK_ALREADY_DEDUCTED',
        message: 'Stock was already deducted for this sale.',
      }),
    exit: 6,
    first: /Stock was already deducted for this sale\. \(HTTP 409 STOCK_ALREADY_DEDUCTED\)/,
    requests: 1,
  },
  {
    name: 'CUSTOMER_ERASED carried by a 400 (exit 6)',
    args: ['leads', 'notes', 'add', '31', '--content', 'hello'],
    serve: (_q, res) =>
      json(res, 400, {
        success: false,
        error_code: 'CUSTOMER_ERASED',
        message: 'This customer has been erased.',
        errors: null,
        data: null,
      }),
    exit: 6,
    first: /refused: the customer's data was erased.*\(HTTP 400 CUSTOMER_ERASED\)/,
  },
  {
    name: 'a body that never ends (a byte every 200 ms): ends by the request deadline',
    args: [...GET_1, ...SHORT],
    serve: (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      res.write('{"data":{"id":1,"note":"');
      const timer = setInterval(() => res.write('a'), 200);
      res.on('close', () => clearInterval(timer));
    },
    exit: 1,
    first: /cannot reach http:\/\/127\.0\.0\.1:\d+: timed out .*2s/,
    requests: 1,
    atLeastMs: 1900,
    withinMs: 6000,
    stdout: (out) => expect(out).toBe(''),
  },
  {
    name: 'headers that never come: ends by the request deadline',
    args: [...GET_1, ...SHORT],
    serve: () => {
      /* accepted, never answered */
    },
    exit: 1,
    first: /cannot reach http:\/\/127\.0\.0\.1:\d+: timed out/,
    requests: 1,
    atLeastMs: 1900,
    withinMs: 6000,
  },
  {
    name: 'the connection cut in the middle of the body',
    args: [...GET_1, '--max-retries', '0'],
    serve: (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write('{"data":{"id":1,', () => setTimeout(() => res.socket?.destroy(), 50));
    },
    exit: 1,
    first: /cannot reach http:\/\/127\.0\.0\.1:\d+/,
    stdout: (out) => expect(out).toBe(''),
  },
  {
    name: 'a JSON body over the 64 MiB cap (65 MiB): refused, not read into memory',
    args: [...GET_1, '--max-retries', '0'],
    serve: (_q, res) => send(res, 200, bigBody(), { 'content-type': 'application/json' }),
    exit: 1,
    first: /larger than 64 MiB; refusing to read it/,
    stdout: (out) => expect(out).toBe(''),
  },
  {
    // Exit 1 with an `error:` line and no stack trace; the line itself is unclear today (see the defects below).
    name: 'deep nesting (100,000 nested arrays in a 200): no crash, exit 1',
    args: GET_1,
    serve: (_q, res) =>
      send(res, 200, `{"success":true,"data":{"id":1,"x":${DEEP}}}`, { 'content-type': 'application/json' }),
    exit: 1,
    stdout: (out) => expect(out).toBe(''),
  },
  {
    name: 'deep nesting with --raw: the body printed untouched, exit 0',
    args: [...GET_1, '--raw'],
    serve: (_q, res) =>
      send(res, 200, `{"success":true,"data":{"id":1,"x":${DEEP}}}`, { 'content-type': 'application/json' }),
    exit: 0,
    stdout: (out) => expect(out).toBe(`{"success":true,"data":{"id":1,"x":${DEEP}}}\n`),
  },
  {
    name: 'deep nesting in a 404 message: exit 5, the status line',
    args: GET_1,
    serve: (_q, res) => send(res, 404, `{"message":${DEEP}}`, { 'content-type': 'application/json' }),
    exit: 5,
    first: /^error: HTTP 404 not found$/,
  },
  {
    name: '302 redirect to another host: not followed, the other host gets nothing',
    args: GET_1,
    serve: (_q, res) =>
      send(res, 302, '<html><body>Redirecting to the login page</body></html>', {
        location: `http://127.0.0.1:${other.port}/api/v1/customers/1`,
        'content-type': 'text/html',
      }),
    exit: 1,
    first: /302/,
    requests: 1,
  },
  {
    name: '307 redirect of a POST to another host: not followed, the body not re-sent',
    args: CREATE_CUSTOMER,
    serve: (_q, res) => send(res, 307, '', { location: `http://127.0.0.1:${other.port}/api/v1/customers` }),
    exit: 1,
    first: /307/,
    requests: 1,
  },
  {
    name: '302 redirect to another host under --debug: not followed, the token shown redacted only',
    args: GET_1,
    debug: true,
    serve: (_q, res) =>
      send(res, 302, '', { location: `http://127.0.0.1:${other.port}/api/v1/customers/1?from=redirect` }),
    exit: 1,
    first: /302/,
    details: [/^debug: > authorization: Bearer \*\*\*$/m, /^debug: < location: http:\/\/127\.0\.0\.1:\d+\//m],
    requests: 1,
  },
  {
    name: 'ai-reports pdf answered 200 with an HTML page: exit 1, no file written',
    args: (dir) => ['ai-reports', 'pdf', '1', '-O', join(dir, 'r.pdf'), ...SHORT],
    serve: (_q, res) =>
      send(res, 200, `<!DOCTYPE html><html><body>Sign in</body></html>`, { 'content-type': 'text/html' }),
    exit: 1,
    first: /AI report 1 is not a PDF; nothing was saved/,
    after: async (_r, dir) => expect(await readdir(dir)).toEqual([]),
  },
  {
    name: 'ai-reports pdf answered 200 with an empty body: exit 1, no file written',
    args: (dir) => ['ai-reports', 'pdf', '1', '-O', join(dir, 'r.pdf'), ...SHORT],
    serve: (_q, res) => send(res, 200, '', { 'content-type': 'application/pdf' }),
    exit: 1,
    first: /not a PDF; nothing was saved/,
    after: async (_r, dir) => expect(await readdir(dir)).toEqual([]),
  },
  {
    name: 'ai-reports pdf answered with a JSON error (404): exit 5, no file written',
    args: (dir) => ['ai-reports', 'pdf', '1', '-O', join(dir, 'r.pdf'), ...SHORT],
    serve: (_q, res) =>
      json(res, 404, { success: false, error: 'Not Found', data: { message: 'AI report not found' } }),
    exit: 5,
    first: /AI report not found \(HTTP 404\)/,
    after: async (_r, dir) => expect(await readdir(dir)).toEqual([]),
  },
  {
    name: 'ai-reports pdf answered with a JSON error (400, not ready): exit 1, no file written',
    args: (dir) => ['ai-reports', 'pdf', '3', '-O', join(dir, 'r.pdf'), ...SHORT],
    serve: (_q, res) =>
      json(res, 400, { success: false, error: 'The report is still being generated.', data: null }),
    exit: 1,
    first: /The report is still being generated\. \(HTTP 400\)/,
    after: async (_r, dir) => expect(await readdir(dir)).toEqual([]),
  },
  {
    name: 'ANSI, C1 CSI (\\u009b), bidi override (\\u202e) and CR LF in an error message: stripped',
    args: GET_1,
    serve: (_q, res) => json(res, 404, { message: HOSTILE_MESSAGE }),
    exit: 5,
    first: /GONE.*evil.*bell.*forged line \(HTTP 404\)$/,
    after: ({ stderr }) => {
      // The CR LF could not start a forged line of its own.
      expect(lines(stderr).filter((line) => line.startsWith('error:'))).toHaveLength(1);
    },
  },
  {
    name: 'control characters in 422 field names and messages: stripped',
    args: CREATE_CUSTOMER,
    serve: (_q, res) =>
      json(res, 422, {
        message: 'The given data was invalid.\u001b[8m',
        errors: { '\u001b]8;;http://evil.test\u0007email': ['\u001b[31mbad\u202e address\u009b2J'] },
      }),
    exit: 7,
    first: /The given data was invalid\./,
    details: [/^ {2}.*email: .*bad.* address/m],
  },
  {
    name: 'control characters in a record shown as a table: stripped on stdout',
    args: [...GET_1, '-o', 'table'],
    serve: (_q, res) =>
      json(res, 200, { success: true, data: { ...CUSTOMER, first_name: `Ada${HOSTILE_MESSAGE}` } }),
    exit: 0,
    stdout: (out) => {
      expect(out).toContain('GONE');
      expect(out).not.toMatch(CONTROL);
      expect(out).not.toMatch(/^error: forged line/m);
    },
  },
  {
    name: 'control characters in a record as JSON: kept exact (data, not terminal text)',
    args: [...GET_1, '-o', 'json'],
    serve: (_q, res) =>
      json(res, 200, { success: true, data: { ...CUSTOMER, first_name: `Ada${HOSTILE_MESSAGE}` } }),
    exit: 0,
    stdout: (out) => expect(JSON.parse(out).first_name).toBe(`Ada${HOSTILE_MESSAGE}`),
  },
  {
    name: 'a 200 body with invalid UTF-8: replacement characters, exit 0',
    args: GET_1,
    serve: (_q, res) =>
      send(
        res,
        200,
        Buffer.concat([
          Buffer.from('{"success":true,"data":{"id":1,"first_name":"A'),
          Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
          Buffer.from('"}}'),
        ]),
        { 'content-type': 'application/json; charset=utf-8' },
      ),
    exit: 0,
    stdout: (out) => {
      const record = JSON.parse(out) as { id: number; first_name: string };
      expect(record.id).toBe(1);
      expect(record.first_name.startsWith('A\ufffd')).toBe(true);
    },
  },
  {
    name: 'invalid UTF-8 in an error message: a clean line',
    args: GET_1,
    serve: (_q, res) =>
      send(
        res,
        404,
        Buffer.concat([
          Buffer.from('{"message":"No such \\u001b[1m'),
          Buffer.from([0xc0, 0xff]),
          Buffer.from('"}'),
        ]),
        { 'content-type': 'application/json' },
      ),
    exit: 5,
    first: /No such .*\(HTTP 404\)/,
  },
  {
    name: 'a Laravel HTML 500 page: exit 1 with a short line, not the page',
    args: [...GET_1, '--max-retries', '0'],
    serve: (_q, res) => send(res, 500, LARAVEL_500, { 'content-type': 'text/html; charset=UTF-8' }),
    exit: 1,
    first: /^error: HTTP 500 server error$/,
    after: ({ stderr }) => {
      expect(stderr.length).toBeLessThan(300);
      expect(stderr).not.toMatch(/<html|<!DOCTYPE|SQLSTATE|CustomerController/i);
    },
  },
  {
    name: 'clinic api: a 404 whose JSON body carries control characters (body on stderr, made safe)',
    args: ['api', '/v1/customers/1'],
    serve: (_q, res) => json(res, 404, { message: HOSTILE_MESSAGE, data: { note: '\u009b2J\u202e' } }),
    exit: 5,
    first: /GONE.*\(HTTP 404\)$/,
    stdout: (out) => expect(out).toBe(''),
  },
  {
    name: 'clinic api: a Laravel HTML 500 page is folded into one bounded line',
    args: ['api', '/v1/customers/1', '--max-retries', '0'],
    serve: (_q, res) => send(res, 500, LARAVEL_500, { 'content-type': 'text/html; charset=UTF-8' }),
    exit: 1,
    first: /^error: HTTP 500 server error$/,
    stdout: (out) => expect(out).toBe(''),
    after: ({ stderr }) => {
      expect(lines(stderr)).toHaveLength(2);
      expect(stderr.length).toBeLessThan(2200);
    },
  },
  {
    name: 'clinic api: a 200 with control characters reaches a pipe exactly',
    args: ['api', '/v1/customers/1'],
    serve: (_q, res) => json(res, 200, { success: true, data: { first_name: HOSTILE_MESSAGE } }),
    exit: 0,
    stdout: (out) =>
      expect(out).toBe(`${JSON.stringify({ success: true, data: { first_name: HOSTILE_MESSAGE } })}\n`),
  },
  {
    name: 'a 502 from a proxy with a plain-text body on a list: exit 1 after the retry',
    args: ['customers', 'list', '--max-retries', '1'],
    serve: (_q, res) => send(res, 502, 'Bad Gateway\n', { 'content-type': 'text/plain' }),
    exit: 1,
    first: /^error: HTTP 502 bad gateway$/,
    requests: 2,
  },
];

function bigBody(): Buffer {
  const size = 65 * 1024 * 1024;
  const body = Buffer.alloc(size, 0x61);
  body.write('{"data":"', 0);
  body.write('"}', size - 2);
  return body;
}

/** Runs one case and checks what every case must meet, then the case's own expectations. */
async function runCase(entry: Case): Promise<void> {
  const dir = await tempDir('clinic-bad-answer-case-');
  try {
    api.handler = entry.serve;
    const args = typeof entry.args === 'function' ? entry.args(dir) : entry.args;
    const result = await clinic(entry.debug ? [...args, '--debug'] : args);
    const { code, stdout, stderr, ms } = result;
    const context = `exit ${code} after ${Math.round(ms)} ms\nstderr: ${stderr}\nstdout: ${stdout.slice(0, 500)}`;

    expect(code, context).toBe(entry.exit);
    expect(ms, context).toBeLessThan(entry.withinMs ?? 10_000);
    if (entry.atLeastMs !== undefined) expect(ms, context).toBeGreaterThanOrEqual(entry.atLeastMs);
    if (entry.exit !== 0) {
      const first =
        lines(stderr).filter((line) => !/retrying in|^debug: /.test(line))[entry.skipLines ?? 0] ?? '';
      expect(first, context).toMatch(/^error: \S/);
      if (entry.first) expect(first, context).toMatch(entry.first);
    } else {
      expect(stderr, context).not.toMatch(/^error:/m);
    }
    for (const detail of entry.details ?? []) expect(stderr, context).toMatch(detail);
    if (!entry.debug) expect(stderr, context).not.toMatch(/^ {4}at /m); // no stack trace
    expect(stderr, context).not.toMatch(CONTROL);
    expect(stdout + stderr, context).not.toContain(TOKEN);
    if (entry.requests !== undefined) expect(api.seen.length, context).toBe(entry.requests);
    // What the CLI sent carried the token to the API, and nowhere else.
    for (const seen of api.seen) expect(seen.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(other.seen).toEqual([]);
    entry.stdout?.(stdout);
    await entry.after?.(result, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('hostile and broken answers', () => {
  it('has a corpus of at least 22 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(22);
  });

  for (const entry of cases) it(entry.name, () => runCase(entry));
});

// Defects the corpus found, each fixed: every test below fails if its defect comes back.
describe('defects the corpus found, fixed', () => {
  // An unasked-for switch of protocols: node:http hands a 101 only to an 'upgrade' listener and, with none, drops the
  // socket; the request was then never answered, the event loop emptied, and every command ended in Node's exit 0.
  const switchProtocols: Handler = (_q, res) =>
    res.socket?.end('HTTP/1.1 101 Switching Protocols\r\nconnection: upgrade\r\nupgrade: x\r\n\r\n');
  it.each([
    ['customers get', GET_1],
    ['customers create', CREATE_CUSTOMER],
    ['customers list --all', ['customers', 'list', '--all', '-o', 'ndjson']],
    ['api', ['api', '/v1/account']],
    ['auth status', ['auth', 'status']],
  ])('a 101 to %s: exit 1, one line saying the server switched protocols', (_name, args) =>
    runCase({
      name: '101',
      args: [...args, '--max-retries', '0'],
      serve: switchProtocols,
      exit: 1,
      first:
        /^error: .*switched protocols \(HTTP 101\) unasked( \(the request may have been processed.*\))?$/,
      stdout: (out) => expect(out).toBe(''),
    }),
  );

  // clinic api read its JSON or text answer as a download does, under no deadline: a body dripping a byte a second
  // held it for ever, --request-timeout or not.
  it('clinic api: a body dripping a byte a second is cut off at --request-timeout, exit 1, nothing written', () =>
    runCase({
      name: 'api drip',
      args: ['api', '/v1/account', ...SHORT],
      serve: (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"data":"');
        const drip = setInterval(() => res.write('a'), 1000);
        res.on('close', () => clearInterval(drip));
      },
      exit: 1,
      atLeastMs: 2000,
      withinMs: 6000,
      first:
        /^error: .*timed out \(no complete answer within 2s\) while downloading the answer; nothing was written$/,
      stdout: (out) => expect(out).toBe(''),
    }));

  it('a 101 to a bulk run: the line is unknown in its result and its journal, exit 1', () =>
    runCase({
      name: '101 bulk',
      args: (dir) => {
        writeFileSync(join(dir, 'one.ndjson'), '{"first_name":"A","last_name":"B"}\n');
        return ['customers', 'create', '--from', join(dir, 'one.ndjson')];
      },
      serve: switchProtocols,
      exit: 1,
      requests: 1,
      // The summary and its hint first, then the error line.
      skipLines: 2,
      first: /^error: 1 of 1 record is not ok/,
      stdout: (out) =>
        expect(JSON.parse(out)).toMatchObject({
          line: 1,
          status: 'unknown',
          message: expect.stringMatching(/switched protocols \(HTTP 101\) unasked/),
        }),
      after: (_result, dir) => {
        const journal = readFileSync(join(dir, 'one.ndjson.journal'), 'utf8').trim().split('\n');
        expect(JSON.parse(journal.at(-1)!)).toMatchObject({ line: 1, state: 'unknown' });
      },
    }));

  it('deep nesting in a 200: the error line names the answer, not "Maximum call stack size exceeded"', () =>
    runCase({
      name: 'deep nesting, clear line',
      args: GET_1,
      serve: (_q, res) =>
        send(res, 200, `{"success":true,"data":{"id":1,"x":${DEEP}}}`, {
          'content-type': 'application/json',
        }),
      exit: 1,
      first: /^error: (?!Maximum call stack).*(answer|response).*(nested|deep)/i,
    }));

  it('422 whose field errors are deeply nested: still exit 7 with a field line', () =>
    runCase({
      name: 'deep 422',
      args: CREATE_CUSTOMER,
      serve: (_q, res) =>
        send(res, 422, `{"message":"The given data was invalid.","errors":{"email":${DEEP}}}`, {
          'content-type': 'application/json',
        }),
      exit: 7,
      first: /The given data was invalid\. \(HTTP 422\)/,
      details: [/^ {2}email: /m],
    }));

  it('a redirect: the error line says the server redirected, and where, instead of "HTTP 302 (HTTP 302)"', () =>
    runCase({
      name: 'redirect, clear line',
      args: GET_1,
      serve: (_q, res) =>
        send(res, 302, '', { location: `http://127.0.0.1:${other.port}/api/v1/customers/1` }),
      exit: 1,
      first: new RegExp(`redirect.*127\\.0\\.0\\.1:${other.port}`, 'i'),
    }));

  it('clinic api: the error line comes first, the server body after it as a detail', () =>
    runCase({
      name: 'api error line first',
      args: ['api', '/v1/customers/1'],
      serve: (_q, res) => json(res, 404, { message: 'Customer not found' }),
      exit: 5,
      first: /^error: Customer not found \(HTTP 404\)$/,
    }));

  it('--debug: a server echoing the token in response headers does not get it printed', () =>
    runCase({
      name: 'echoed token under --debug',
      args: GET_1,
      debug: true,
      serve: (req, res) =>
        json(
          res,
          404,
          { message: 'nope' },
          {
            'x-echo': String(req.headers.authorization),
            'x-request-id': TOKEN,
            link: `<http://127.0.0.1/next?t=${TOKEN}>; rel="next"`,
          },
        ),
      exit: 5,
      first: /nope \(HTTP 404\)/,
    }));
});
