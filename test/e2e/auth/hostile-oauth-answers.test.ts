// Hostile sign-in servers end to end: a discovery document, token answer (login and refresh) or revocation answer
// that is a gzip bomb, an endless body, or a body that trickles for ever. Each command ends promptly with one clear
// line and its documented exit, the process stays small (its peak RSS, VmHWM, read from /proc while it runs), and
// an endless body is hung up on after a bounded number of bytes.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, baseEnv, type CliResult, lines, runCli, tempDir } from '../../helpers/cli.js';

const FETCH_BROWSER = fileURLToPath(new URL('../../helpers/fetch-browser.mjs', import.meta.url));
type Mode = 'ok' | 'gzip' | 'huge' | 'trickle';
type Endpoint = 'discovery' | 'token' | 'revoke';

/** A peak RSS far below what inflating or buffering the answers would take (the bomb inflates to 256 MiB). */
const SMALL_KB = 200 * 1024;
/** The 1 MiB cap, plus what the socket buffers of both sides hold. */
const BOUNDED_BYTES = 32 * 1024 * 1024;

/** 64 MiB of spaces gzipped to about 64 KiB; four of them in a row inflate to 256 MiB. */
let bomb: Buffer;
const modes: Record<Endpoint, Mode> = { discovery: 'ok', token: 'ok', revoke: 'ok' };
/** What each hostile answer got to send before the client hung up. */
let sent: { bytes: number; hungUp: boolean };
let server: Server;
let root: string;
let configDir: string;

function hostile(mode: Exclude<Mode, 'ok'>, res: ServerResponse): void {
  if (mode === 'gzip') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    return void res.end(Buffer.concat([bomb, bomb, bomb, bomb]));
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.on('close', () => (sent.hungUp = true));
  if (mode === 'trickle') {
    const timer = setInterval(() => res.write(' '), 200);
    return void res.on('close', () => clearInterval(timer));
  }
  const chunk = Buffer.alloc(64 * 1024, ' ');
  const pump = () => {
    while (!res.destroyed) {
      sent.bytes += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  pump();
}

function answer(path: string, query: URLSearchParams, res: ServerResponse): void {
  const json = (value: unknown) =>
    void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  const endpoint: Endpoint | undefined =
    path === '/.well-known/openid-configuration'
      ? 'discovery'
      : path === '/oauth/token'
        ? 'token'
        : path === '/oauth/revoke'
          ? 'revoke'
          : undefined;
  const mode = endpoint ? modes[endpoint] : 'ok';
  if (mode !== 'ok') return hostile(mode, res);
  if (endpoint === 'discovery')
    return json({
      issuer: root,
      authorization_endpoint: `${root}/oauth/authorize`,
      token_endpoint: `${root}/oauth/token`,
      revocation_endpoint: `${root}/oauth/revoke`,
    });
  if (path === '/oauth/authorize') {
    const back = new URL(query.get('redirect_uri') ?? '');
    back.search = new URLSearchParams({ code: 'the-code', state: query.get('state') ?? '' }).toString();
    return void res.writeHead(302, { location: back.href }).end();
  }
  if (endpoint === 'token')
    return json({
      access_token: 'at',
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: 'rt',
      scope: 'a',
    });
  if (endpoint === 'revoke') return void res.writeHead(200).end();
  res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found."}');
}

interface Watched extends CliResult {
  ms: number;
  /** The highest VmHWM (peak resident set) seen in /proc while it ran, in KiB. */
  peakKb: number;
}

/** `clinic --profile p ARGS`, sampling its peak memory from /proc until it exits. */
function clinic(args: string[]): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = {
      ...baseEnv(configDir),
      BROWSER: `"${process.execPath}" "${FETCH_BROWSER}"`,
    };
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, '--profile', 'p', ...args], { env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    let peakKb = 0;
    const sample = setInterval(() => {
      readFile(`/proc/${child.pid}/status`, 'utf8').then(
        (status) => (peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0))),
        () => {},
      );
    }, 20);
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sample);
      resolve({ code, stdout, stderr, ms: Date.now() - started, peakKb });
    });
    child.stdin.end();
  });
}

const errorLine = (result: CliResult) => lines(result.stderr).filter((l) => l.startsWith('error:'));

/** A successful sign-in, so that refresh and logout have a refresh token to spend. */
async function signIn(): Promise<void> {
  const result = await clinic(['login', '--insecure-storage', '--scopes', 'a']);
  if (result.code !== 0) throw new Error(`sign-in failed: ${result.stderr}`);
}

beforeAll(async () => {
  bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '), { level: 9 });
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    req.resume().on('end', () => answer(url.pathname, url.searchParams, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  configDir = `${await tempDir('clinic-hostile-oauth-')}/config`;
  for (const [key, value] of [
    ['base_url', `${root}/api`],
    ['auth_url', root],
    ['client_id', 'clinic-cli'],
  ])
    await runCli(configDir, ['--profile', 'p', 'config', 'set', key!, value!]);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  Object.assign(modes, { discovery: 'ok', token: 'ok', revoke: 'ok' });
  sent = { bytes: 0, hungUp: false };
});

/** After the run: an endless body was hung up on having sent little; any run stayed small. */
async function expectBounded(result: Watched, mode: 'gzip' | 'huge') {
  expect(result.peakKb).toBeGreaterThan(0);
  expect(result.peakKb).toBeLessThan(SMALL_KB);
  if (mode === 'huge') {
    for (let i = 0; i < 50 && !sent.hungUp; i++) await new Promise((r) => setTimeout(r, 20));
    expect(sent.hungUp).toBe(true);
    expect(sent.bytes).toBeLessThan(BOUNDED_BYTES);
  }
}

const refusal = (path: string, mode: 'gzip' | 'huge') =>
  mode === 'gzip'
    ? `${root}${path} sent a compressed answer (Content-Encoding: gzip), which clinic does not accept: ` +
      'it asks for identity (uncompressed) answers'
    : `the answer from ${root}${path} is larger than 1 MiB; refusing to read it`;

describe.each(['gzip', 'huge'] as const)('answers that are %s', (mode) => {
  it('login: a hostile discovery document is exit 1 with one line naming it', async () => {
    modes.discovery = mode;
    const result = await clinic(['login', '--insecure-storage', '--scopes', 'a']);
    expect(result.code).toBe(1);
    expect(errorLine(result)).toEqual([`error: ${refusal('/.well-known/openid-configuration', mode)}`]);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    await expectBounded(result, mode);
  });

  it('login: a hostile token answer (the code exchange) is exit 3 with one line naming it', async () => {
    modes.token = mode;
    const result = await clinic(['login', '--insecure-storage', '--scopes', 'a']);
    expect(result.code).toBe(3);
    expect(errorLine(result)).toEqual([
      `error: the sign-in could not be completed: ${refusal('/oauth/token', mode)}`,
    ]);
    await expectBounded(result, mode);
  });

  it('auth refresh: a hostile discovery document or token answer is exit 1', async () => {
    await signIn();
    for (const endpoint of ['discovery', 'token'] as const) {
      modes[endpoint] = mode;
      sent = { bytes: 0, hungUp: false };
      const result = await clinic(['auth', 'refresh']);
      expect(result.code).toBe(1);
      const path = endpoint === 'discovery' ? '/.well-known/openid-configuration' : '/oauth/token';
      const prefix = endpoint === 'token' ? 'could not refresh the sign-in: ' : '';
      expect(errorLine(result)).toEqual([`error: ${prefix}${refusal(path, mode)}`]);
      await expectBounded(result, mode);
      modes[endpoint] = 'ok';
    }
  });

  it('logout: a hostile revocation answer is a warning; the sign-in is still deleted (exit 0)', async () => {
    await signIn();
    modes.revoke = mode;
    const result = await clinic(['logout']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `warning: could not revoke at the server (${refusal('/oauth/revoke', mode)})`,
    );
    expect(result.stderr).toContain('logged out of profile p');
    await expectBounded(result, mode);
  });
});

describe('a discovery document that never ends (a byte every 200 ms)', () => {
  it('login ends at its request deadline', async () => {
    modes.discovery = 'trickle';
    const result = await clinic(['--request-timeout', '3', 'login', '--insecure-storage', '--scopes', 'a']);
    expect(result.code).toBe(1);
    expect(errorLine(result)).toEqual([
      `error: ${root}/.well-known/openid-configuration: no complete answer within 3s`,
    ]);
    expect(result.ms).toBeLessThan(15_000);
  });

  it('doctor ends by its deadline, saying the refresh could not get the document', async () => {
    await signIn();
    // The token has expired by the time `doctor` looks at it.
    const file = join(configDir, 'credentials.json');
    const all = JSON.parse(await readFile(file, 'utf8'));
    all.p.expires_at = new Date(Date.now() - 1000).toISOString();
    await writeFile(file, JSON.stringify(all), { mode: 0o600 });
    modes.discovery = 'trickle';
    const result = await clinic(['--request-timeout', '3', 'doctor', '-o', 'json']);
    expect(result.ms).toBeLessThan(20_000);
    const token = (JSON.parse(result.stdout) as { checks: { name: string; detail: string }[] }).checks.find(
      (check) => check.name === 'token',
    );
    expect(token?.detail).toContain(`${root}/.well-known/openid-configuration: no complete answer within 3s`);
  });
});
