// A realtime server that sends frames the real pusher-js cannot take (JSON, but not an event object): they are
// dropped, the process does not crash, the connection stays up and the next chat event still arrives.
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { connectChat } from '../../../src/core/realtime/connection.js';

const CHANNEL = 'private-chat-log.1';
const CREATED = 'App\\Events\\ChatLogCreated';
const GOOD_EVENT = JSON.stringify({
  event: CREATED,
  channel: CHANNEL,
  data: JSON.stringify({ id: 7, conversation_id: 1, text: 'still here' }),
});
type Frame = string | Buffer;
const nameOf = (frame: Frame) => (typeof frame === 'string' ? frame : `binary ${String(frame)}`);

/** Frames that threw inside pusher-js's message handler once the connection was up: each crashed the process. */
const THROWING_FRAMES: Frame[] = [
  '{"event":1}',
  '[]',
  '{"event":null}',
  '{"event":{}}',
  '{"channel":"private-chat-log.1"}',
  '"string"',
  '123',
  'true',
  Buffer.from('{"event":1}'),
  `{"event":"${CREATED.replaceAll('\\', '\\\\')}","channel":"constructor","data":"{}"}`,
  '{"event":"x","channel":"__proto__"}',
  '{"event":"x","channel":"toString"}',
  '{"event":"pusher_internal:subscription_count","channel":"private-chat-log.1","data":null}',
  '{"event":"pusher:signin_success","data":{"user_data":"{\\"id\\":\\"u\\"}"}}',
  '{"event":"pusher:signin_success","data":{"user_data":"null"}}',
  '{"event":"pusher_internal:watchlist_events","data":null}',
];

/** Odd frames pusher-js already survived: they must still pass, or be dropped, without harm. */
const SURVIVED_FRAMES: Frame[] = [
  'null',
  '{"event":[]}',
  '{',
  'not json',
  '',
  Buffer.from([0xff, 0x00, 0x7b]),
  '{"event":"x","channel":5}',
  '{"event":"x","channel":null}',
  '{"event":"x","channel":{}}',
  '{"event":"x","channel":"private-other"}',
  '{"event":"pusher:connection_established","data":5}',
  '{"event":"pusher:connection_established","data":null}',
  '{"event":"pusher:error","data":null}',
  '{"event":"pusher:error","data":5}',
  '{"event":"pusher:error","data":"not json"}',
  '{"event":"pusher:error"}',
  '{"event":"pusher:subscription_error","channel":"private-chat-log.1","data":null}',
  '{"event":"pusher_internal:subscription_succeeded","channel":"private-chat-log.1","data":null}',
];

/** Where the server slips the bad frames in: before its handshake, before the subscription, or after it. */
type Moment = 'before the handshake' | 'before the subscription' | 'after the subscription';

let server: WebSocketServer | undefined;
let disconnect: (() => void) | undefined;
const uncaught: unknown[] = [];
const recordUncaught = (error: unknown) => uncaught.push(error);
beforeEach(() => {
  uncaught.length = 0;
  process.prependListener('uncaughtException', recordUncaught);
});
afterEach(async () => {
  disconnect?.();
  disconnect = undefined;
  process.removeListener('uncaughtException', recordUncaught);
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A Pusher-protocol server that sends `frames` at `moment`, then, once subscribed, one good chat event. */
async function hostileServer(frames: readonly Frame[], moment: Moment) {
  const connections = { count: 0 };
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (socket: WebSocket) => {
    connections.count++;
    const sendAll = () => frames.forEach((frame) => socket.send(frame));
    if (moment === 'before the handshake') sendAll();
    const data = JSON.stringify({ socket_id: '1.1', activity_timeout: 120 });
    socket.send(JSON.stringify({ event: 'pusher:connection_established', data }));
    if (moment === 'before the subscription') sendAll();
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { event: string };
      if (message.event !== 'pusher:subscribe') return;
      socket.send(
        JSON.stringify({ event: 'pusher_internal:subscription_succeeded', channel: CHANNEL, data: '{}' }),
      );
      if (moment === 'after the subscription') sendAll();
      socket.send(GOOD_EVENT);
    });
  });
  await new Promise<void>((resolve) => server!.once('listening', () => resolve()));
  return { port: (server.address() as AddressInfo).port, connections };
}

function connect(port: number) {
  const seen = { events: [] as unknown[], states: [] as string[] };
  const connection = connectChat({ key: 'k', host: '127.0.0.1', port, tls: false }, CHANNEL, ['created'], {
    authorize: async () => 'k:signature',
    state: (current) => seen.states.push(current),
    subscribed: () => {},
    refused: () => {},
    error: () => {},
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

/** Sends `frames` at `moment`; the good event after them must arrive, on the first connection, nothing thrown. */
async function expectSurvived(frames: readonly Frame[], moment: Moment) {
  const { port, connections } = await hostileServer(frames, moment);
  const seen = connect(port);
  await until(() => seen.events.length > 0 || uncaught.length > 0);
  expect(uncaught).toEqual([]);
  expect(seen.events).toEqual([{ id: 7, conversation_id: 1, text: 'still here' }]);
  return { connections, seen };
}

describe('frames pusher-js cannot take', () => {
  it.each(THROWING_FRAMES.map((frame) => [nameOf(frame), frame]))(
    '%s after the subscription is dropped: the connection stays up, the next event arrives',
    async (_name, frame) => {
      const { connections, seen } = await expectSurvived([frame], 'after the subscription');
      expect(connections.count).toBe(1);
      expect(seen.states).toEqual(['connected']);
    },
  );

  it('all of them before the subscription: dropped, the subscription and the event still come', async () => {
    const { connections } = await expectSurvived(THROWING_FRAMES, 'before the subscription');
    expect(connections.count).toBe(1);
  });

  it('all of them before the handshake: dropped, the handshake still succeeds', async () => {
    const { connections } = await expectSurvived(THROWING_FRAMES, 'before the handshake');
    expect(connections.count).toBe(1);
  });
});

describe('odd frames pusher-js already survived', () => {
  it.each(['after the subscription', 'before the subscription'] as const)(
    'are still survived %s, the connection up',
    async (moment) => {
      const { connections } = await expectSurvived(SURVIVED_FRAMES, moment);
      expect(connections.count).toBe(1);
    },
  );
});
