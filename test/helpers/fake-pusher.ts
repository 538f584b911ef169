// A Pusher-protocol WebSocket server (the `ws` package) for tests that run the real pusher-js through
// src/core/realtime/connection.ts: the handshake, a private channel's subscription, and hooks where a test slips in
// frames of its own. One server at a time; closed, with the connection, after each test.
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { connectChat } from '../../src/core/realtime/connection.js';

export const CHANNEL = 'private-chat-log.1';
export const CHAT_LOG_CREATED = 'App\\Events\\ChatLogCreated';

/** Where a test's frames go in: on a new connection, after the handshake, after the subscription. */
export interface FakePusherHooks {
  beforeHandshake?(socket: WebSocket): void;
  afterHandshake?(socket: WebSocket): void;
  subscribed?(socket: WebSocket): void;
}

let server: WebSocketServer | undefined;
let disconnect: (() => void) | undefined;
afterEach(async () => {
  disconnect?.();
  disconnect = undefined;
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Starts the server: its port, how many connections it had, and the close codes it saw. */
export async function fakePusherServer(hooks: FakePusherHooks) {
  const connections = { count: 0 };
  const closes: number[] = [];
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (socket: WebSocket) => {
    connections.count++;
    socket.on('close', (code) => closes.push(code));
    hooks.beforeHandshake?.(socket);
    const data = JSON.stringify({ socket_id: '1.1', activity_timeout: 120 });
    socket.send(JSON.stringify({ event: 'pusher:connection_established', data }));
    hooks.afterHandshake?.(socket);
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { event: string };
      if (message.event !== 'pusher:subscribe') return;
      socket.send(
        JSON.stringify({ event: 'pusher_internal:subscription_succeeded', channel: CHANNEL, data: '{}' }),
      );
      hooks.subscribed?.(socket);
    });
  });
  await new Promise<void>((resolve) => server!.once('listening', () => resolve()));
  return { port: (server.address() as AddressInfo).port, connections, closes };
}

/** A chat event frame of the channel, its data the given record. */
export const chatEvent = (data: object): string =>
  JSON.stringify({ event: CHAT_LOG_CREATED, channel: CHANNEL, data: JSON.stringify(data) });

/** Connects the real pusher-js to the server: what it saw (events, states, errors, subscriptions). */
export function connectLogged(port: number) {
  const seen = { events: [] as unknown[], states: [] as string[], errors: [] as number[], subscribed: 0 };
  const connection = connectChat({ key: 'k', host: '127.0.0.1', port, tls: false }, CHANNEL, ['created'], {
    authorize: async () => 'k:signature',
    state: (current) => seen.states.push(current),
    subscribed: () => seen.subscribed++,
    refused: () => {},
    error: (code) => seen.errors.push(code ?? 0),
    event: (_kind, data) => seen.events.push(data),
  });
  disconnect = () => connection.disconnect();
  return seen;
}

/** Waits (polling) until `done`, at most `ms`. */
export async function until(done: () => boolean, ms = 10_000): Promise<void> {
  for (const start = Date.now(); !done();) {
    if (Date.now() - start > ms) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
