// A fake Clinic API with a Pusher-protocol realtime endpoint on one 127.0.0.1 port, for `chat tail` tests that need
// what the sandbox never does: events out of order, REST answers in any order, pages that never end or never come.
import { rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { tempDir } from './temp-dir.js';

export const CHANNEL = 'private-chat-log.1';
export const CREATED = 'App\\Events\\ChatLogCreated';

export interface FakeRealtime {
  port: number;
  /** REST requests seen (path and query). */
  requests: string[];
  /** The CLINIC_* environment that points a `chat tail` here (base URL, token, tenant 1, realtime). */
  env: Record<string, string>;
  /** Resolves when a client has subscribed to the tenant's channel. */
  subscribed(): Promise<void>;
  /** Sends an event to every subscribed client, its payload as a JSON string, as Laravel broadcasts it. */
  publish(event: string, payload: unknown): void;
  /** Closes every realtime connection (the client reconnects and fills the gap over REST). */
  dropConnections(): void;
  close(): Promise<void>;
}

/** How to answer a REST request under /api (undefined: 404); `res` may be kept to answer later, or never. */
export type RestHandler = (path: string, query: URLSearchParams, res: ServerResponse) => unknown;

/**
 * For a test file: `start(rest)` a fake, closed after the test that started it, and `configDir`, a config folder
 * (under a temporary root made for the file, removed when it ends) for the runs against it.
 */
export function useFakeRealtime(prefix: string) {
  let fake: FakeRealtime | undefined;
  let root = '';
  beforeAll(async () => {
    root = await tempDir(prefix);
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  afterAll(() => rm(root, { recursive: true, force: true }));
  return {
    start: async (rest: RestHandler) => (fake = await startFakeRealtime(rest)),
    /** The fake the running test started. */
    get fake(): FakeRealtime {
      if (fake === undefined) throw new Error('no fake started in this test');
      return fake;
    },
    get configDir() {
      return join(root, 'config');
    },
  };
}

export async function startFakeRealtime(rest: RestHandler): Promise<FakeRealtime> {
  const requests: string[] = [];
  const sockets = new Set<WebSocket>();
  const subscribers = new Set<WebSocket>();
  let onSubscribe: (() => void)[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname + url.search);
    const path = url.pathname.replace(/^\/api/, '');
    if (path === '/broadcasting/auth') return json(res, 200, { auth: 'key:signature' });
    const answer = rest(path, url.searchParams, res);
    if (answer === undefined) return json(res, 404, { message: 'Not found.' });
    if (answer !== res) json(res, 200, answer);
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => {
        sockets.delete(ws);
        subscribers.delete(ws);
      });
      ws.send(
        JSON.stringify({
          event: 'pusher:connection_established',
          data: JSON.stringify({ socket_id: '1.1', activity_timeout: 120 }),
        }),
      );
      ws.on('message', (raw) => {
        const frame = JSON.parse(String(raw)) as { event: string; data?: { channel?: string } };
        if (frame.event === 'pusher:ping') ws.send(JSON.stringify({ event: 'pusher:pong', data: {} }));
        if (frame.event === 'pusher:subscribe' && frame.data?.channel === CHANNEL) {
          ws.send(
            JSON.stringify({ event: 'pusher_internal:subscription_succeeded', channel: CHANNEL, data: '{}' }),
          );
          subscribers.add(ws);
          for (const resolve of onSubscribe) resolve();
          onSubscribe = [];
        }
      });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    requests,
    env: {
      CLINIC_BASE_URL: `http://127.0.0.1:${port}/api`,
      CLINIC_TOKEN: 'fake-token',
      CLINIC_TENANT: '1',
      CLINIC_REALTIME_KEY: 'key',
      CLINIC_REALTIME_HOST: '127.0.0.1',
      CLINIC_REALTIME_PORT: String(port),
      CLINIC_REALTIME_TLS: 'false',
      CLINIC_REALTIME_AUTH_ENDPOINT: `http://127.0.0.1:${port}/api/broadcasting/auth`,
    },
    subscribed: () =>
      subscribers.size > 0 ? Promise.resolve() : new Promise((resolve) => onSubscribe.push(resolve)),
    publish(event, payload) {
      const frame = JSON.stringify({ event, channel: CHANNEL, data: JSON.stringify(payload) });
      for (const ws of subscribers) ws.send(frame);
    },
    dropConnections() {
      for (const ws of sockets) ws.terminate();
    },
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
