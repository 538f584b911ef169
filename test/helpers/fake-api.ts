// A fake Clinic API on 127.0.0.1 for tests of what the sandbox never does: odd bodies, garbled headers, hangs,
// redirects, a realtime endpoint that answers HTTP instead of a WebSocket. Each test says how a request is answered;
// anything it leaves to the default gets a healthy answer. Also writes a config dir whose profile points at it.
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './cli.js';

export interface FakeRequest {
  method: string;
  /** Path and query, e.g. `/api/v1/account`. */
  path: string;
  /** The request carried a bearer token. */
  authorized: boolean;
}

export interface FakeAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as it is; anything else as JSON. */
  body?: unknown;
  /** Never answer (the connection stays open until the server closes). */
  hang?: boolean;
}

export interface FakeApiOptions {
  /** How to answer a request; undefined leaves it to the healthy default. */
  answer?(request: FakeRequest): FakeAnswer | undefined;
  /** The realtime endpoint (`/app/KEY`): refuse the WebSocket upgrade with this HTTP status. */
  refuseUpgrade?: number;
}

export interface FakeApi {
  port: number;
  baseUrl: string;
  requests: FakeRequest[];
  /**
   * A config dir (0700, config.json 0600) whose current profile `fake` points at this API with tenant 1; with
   * `realtime`, its realtime settings point at the same port. Removed by close().
   */
  configDir(options?: { realtime?: boolean }): Promise<string>;
  close(): Promise<void>;
}

export const FAKE_ACCOUNT = {
  id: 7,
  name: 'Ada Admin',
  email: 'ada@example.com',
  tenants: [{ id: 1, name: 'Northside Clinic', slug: 'northside', is_active: true }],
};

/** The healthy answers: account, tenant setup complete, channel authorized; 401 without a token. */
function healthy(request: FakeRequest): FakeAnswer {
  const path = request.path.split('?')[0];
  if (path === '/api/v1/account' && !request.authorized)
    return { status: 401, body: { message: 'Unauthenticated.' } };
  if (path === '/api/v1/account') return { body: { success: true, data: FAKE_ACCOUNT } };
  if (path === '/api/v1/account-transaction-types') return { body: { success: true, data: [] } };
  if (path === '/api/broadcasting/auth') return { body: { auth: 'key:signature' } };
  return { status: 404, body: { message: 'Not found.' } };
}

export async function startFakeApi(options: FakeApiOptions = {}): Promise<FakeApi> {
  const requests: FakeRequest[] = [];
  const open = new Set<import('node:net').Socket>();
  const server = createServer((req: IncomingMessage, res) => {
    const request = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      authorized: /^Bearer /i.test(req.headers.authorization ?? ''),
    };
    requests.push(request);
    const answer = options.answer?.(request) ?? healthy(request);
    if (answer.hang) return;
    const body =
      answer.body === undefined
        ? ''
        : typeof answer.body === 'string'
          ? answer.body
          : JSON.stringify(answer.body);
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
    res.end(body);
  });
  server.on('connection', (socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('upgrade', (req: IncomingMessage, socket) => {
    requests.push({ method: 'UPGRADE', path: req.url ?? '/', authorized: false });
    if (options.refuseUpgrade === undefined) return; // silent: the handshake never completes
    socket.end(`HTTP/1.1 ${options.refuseUpgrade} Refused\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/api`;
  const roots: string[] = [];
  return {
    port,
    baseUrl,
    requests,
    async configDir(options = {}) {
      const root = await tempDir('clinic-fake-');
      roots.push(root);
      return writeConfig(join(root, 'config'), port, baseUrl, options.realtime ?? false);
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
    },
  };
}

async function writeConfig(dir: string, port: number, baseUrl: string, realtime: boolean): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const profile: Record<string, unknown> = { base_url: baseUrl, tenant: '1' };
  if (realtime)
    profile.realtime = {
      key: 'key',
      host: '127.0.0.1',
      port: String(port),
      tls: 'false',
      auth_endpoint: `${baseUrl}/broadcasting/auth`,
    };
  const file = join(dir, 'config.json');
  await writeFile(file, JSON.stringify({ current_profile: 'fake', profiles: { fake: profile } }));
  await chmod(file, 0o600);
  return dir;
}
