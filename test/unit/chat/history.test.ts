// `chat tail --since`: what came before the tail is printed as history, apart from gap fills after a reconnect
// (the human line labels them `(history)` and `(missed)`); NDJSON keeps `source: rest` for both.
import { expect, it } from 'vitest';
import type { TailEvent } from '../../../src/core/realtime/events.js';
import { runChatTail } from '../../../src/core/realtime/tail.js';
import { CONVERSATION, chatMessage, fakeTail, messagesApi, until } from '../../helpers/fake-chat-tail.js';

it('marks the --since fill as history, and neither live messages nor a later gap fill', async () => {
  const api = messagesApi();
  api.publish(5);
  const printed: TailEvent[] = [];
  const status: string[] = [];
  const controller = new AbortController();
  const tail = fakeTail(api);
  const done = runChatTail({
    ...tail.options,
    conversations: new Set([CONVERSATION]),
    since: 2,
    signal: controller.signal,
    print: async (event) => void printed.push(event),
    status: (line) => status.push(line),
  }).catch((error: unknown) => error);
  await until(() => printed.length === 3, 'the history');
  api.publish(6);
  tail.handlers()?.event('created', chatMessage(6));
  await until(() => printed.length === 4, 'the live message');
  api.publish(8); // 7 and 8 arrive while the connection is down
  tail.handlers()?.state('connecting', 'connected');
  tail.handlers()?.state('connected', 'connecting');
  tail.handlers()?.subscribed();
  await until(() => printed.length === 6, 'the gap fill');
  controller.abort();
  await done;
  expect(printed.map((e) => [e.data.id, e.source, e.history === true])).toEqual([
    [3, 'rest', true],
    [4, 'rest', true],
    [5, 'rest', true],
    [6, 'realtime', false],
    [7, 'rest', false],
    [8, 'rest', false],
  ]);
  expect(status).toContain('printed 3 earlier messages (--since)');
  expect(status).toContain('filled 2 missed messages (after a reconnect)');
});
