// A realtime server that sends one huge message: the connection refuses it (close 1009) instead of buffering it.
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { connectChat } from '../../../src/core/realtime/connection.js';
import { MAX_REALTIME_MESSAGE_BYTES } from '../../../src/core/limits.js';

const CHANNEL = 'private-chat-log.1';
let server: WebSocketServer | undefined;
let disconnect: (() => void) | undefined;
afterEach(async () => {
  disconnect?.();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A Pusher-protocol server that, once the channel is subscribed, sends one chat event of `size` bytes of text. */
async function hugeEventServer(size: number) {
  const closes: number[] = [];
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (socket: WebSocket) => {
    socket.on('close', (code) => closes.push(code));
    const data = JSON.stringify({ socket_id: '1.1', activity_timeout: 120 });
    socket.send(JSON.stringify({ event: 'pusher:connection_established', data }));
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { event: string };
      if (message.event !== 'pusher:subscribe') return;
      socket.send(
        JSON.stringify({ event: 'pusher_internal:subscription_succeeded', channel: CHANNEL, data: '{}' }),
      );
      const text = 'x'.repeat(size);
      socket.send(
        JSON.stringify({
          event: 'App\\Events\\ChatLogCreated',
          channel: CHANNEL,
          data: JSON.stringify({ id: 1, conversation_id: 1, text }),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server!.once('listening', () => resolve()));
  return { port: (server.address() as AddressInfo).port, closes };
}

function connect(port: number) {
  const seen = { events: [] as unknown[], errors: [] as number[], subscribed: 0 };
  const connection = connectChat({ key: 'k', host: '127.0.0.1', port, tls: false }, CHANNEL, ['created'], {
    authorize: async () => 'k:signature',
    state: () => {},
    subscribed: () => seen.subscribed++,
    refused: () => {},
    error: (code) => seen.errors.push(code ?? 0),
    event: (_kind, data) => seen.events.push(data),
  });
  disconnect = () => connection.disconnect();
  return seen;
}

const until = async (done: () => boolean, ms = 10_000) => {
  for (const start = Date.now(); !done();) {
    if (Date.now() - start > ms) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('a realtime message above the cap', () => {
  it('is refused: the connection closes with 1009 and the event never arrives', async () => {
    const { port, closes } = await hugeEventServer(MAX_REALTIME_MESSAGE_BYTES + 1024);
    const seen = connect(port);
    await until(() => closes.length > 0);
    expect(closes[0]).toBe(1009);
    expect(seen.errors).toContain(1009);
    expect(seen.events).toEqual([]);
  });

  it('a message under the cap still arrives', async () => {
    const { port } = await hugeEventServer(64 * 1024);
    const seen = connect(port);
    await until(() => seen.events.length > 0);
    expect((seen.events[0] as { text: string }).text).toHaveLength(64 * 1024);
  });
});
