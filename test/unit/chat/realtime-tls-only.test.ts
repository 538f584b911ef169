// A realtime server that accepts only TLS (Pusher's 4000) while the profile says clear text: the tail stops at once,
// saying what to set, instead of trying TLS to a clear-text address for ever (with Node's warning about it).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { NetworkError } from '../../../src/core/errors.js';
import { runChatTail } from '../../../src/core/realtime/tail.js';
import { fakeTail, messagesApi } from '../../helpers/fake-chat-tail.js';
import { fakePusherServer } from '../../helpers/fake-pusher.js';

const warnings: string[] = [];
const recordWarning = (warning: Error) => warnings.push(warning.message);
beforeEach(() => {
  warnings.length = 0;
  process.on('warning', recordWarning);
});
afterEach(() => {
  process.off('warning', recordWarning);
});

it('4000 (TLS only) on a clear-text profile ends the tail with what to set, nothing tried over TLS', async () => {
  const { port, connections } = await fakePusherServer({
    afterHandshake: (socket) => {
      socket.send(JSON.stringify({ event: 'pusher:error', data: { code: 4000, message: 'SSL only' } }));
      socket.close(4000, 'SSL only');
    },
  });
  const { options } = fakeTail(messagesApi());
  const controller = new AbortController();
  const ended = await runChatTail({
    ...options,
    realtime: { key: 'k', host: '127.0.0.1', port, tls: false },
    connect: undefined, // the real pusher-js
    signal: controller.signal,
    print: async () => {},
    status: () => {},
  }).catch((error: unknown) => error);
  controller.abort();
  expect(ended).toBeInstanceOf(NetworkError);
  expect((ended as Error).message).toBe(
    'the realtime server accepts only TLS connections (4000): set realtime.tls true in the profile',
  );
  expect(connections.count).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 300)); // anything tried over TLS would warn by now
  expect(warnings).toEqual([]);
});
