// A realtime server that sends frames the real pusher-js cannot take (JSON, but not an event object): they are
// dropped, the process does not crash, the connection stays up and the next chat event still arrives.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import {
  CHAT_LOG_CREATED as CREATED,
  chatEvent,
  connectLogged,
  fakePusherServer,
  until,
} from '../../helpers/fake-pusher.js';

const GOOD_EVENT = chatEvent({ id: 7, conversation_id: 1, text: 'still here' });
type Frame = string | Buffer;
const nameOf = (frame: Frame) => {
  const name = typeof frame === 'string' ? frame : `binary ${String(frame)}`;
  return name.length <= 100 ? name : `${name.slice(0, 100)}… (${name.length} characters)`;
};

/** JSON text of arrays nested `depth` deep. */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** A chat message whose body nests `depth` deep, as the event's JSON text (pusher-js parses it in turn). */
const deepMessage = (depth: number) => `{"id":8,"conversation_id":1,"body":${nested(depth)}}`;
const deepEvent = (data: string) => JSON.stringify({ event: CREATED, channel: 'private-chat-log.1', data });

/** Frames that threw inside pusher-js's message handler once the connection was up: each crashed the process. */
const THROWING_FRAMES: Frame[] = [
  // 20 KB, 10,000 deep: pusher-js's logger walked it recursively, out of stack.
  deepEvent(deepMessage(10_000)),
  `{"event":"${CREATED.replaceAll('\\', '\\\\')}","channel":"private-chat-log.1","data":${nested(10_000)}}`,
  `{"event":"pusher:ping","data":${nested(10_000)}}`,
  // Deeper than an API answer may be (512), if not deep enough to throw: dropped all the same, never delivered.
  deepEvent(deepMessage(600)),
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

const uncaught: unknown[] = [];
const recordUncaught = (error: unknown) => uncaught.push(error);
beforeEach(() => {
  uncaught.length = 0;
  process.prependListener('uncaughtException', recordUncaught);
});
afterEach(() => {
  process.removeListener('uncaughtException', recordUncaught);
});

/** A server that sends `frames` at `moment`, then, once subscribed, one good chat event. */
function hostileServer(frames: readonly Frame[], moment: Moment) {
  const sendAll = (socket: WebSocket) => frames.forEach((frame) => socket.send(frame));
  return fakePusherServer({
    beforeHandshake: (socket) => moment === 'before the handshake' && sendAll(socket),
    afterHandshake: (socket) => moment === 'before the subscription' && sendAll(socket),
    subscribed: (socket) => {
      if (moment === 'after the subscription') sendAll(socket);
      socket.send(GOOD_EVENT);
    },
  });
}

/** Sends `frames` at `moment`; the good event after them must arrive, on the first connection, nothing thrown. */
async function expectSurvived(frames: readonly Frame[], moment: Moment) {
  const { port, connections } = await hostileServer(frames, moment);
  const seen = connectLogged(port);
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
