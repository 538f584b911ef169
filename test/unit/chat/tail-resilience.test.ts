// `chat tail` as a service keeps going through what passes, and ends on what does not: a conversation that can no
// longer be read is dropped (the others go on), a fill or a channel authorization the API cannot serve for now is
// tried again until --reconnect-timeout, a refusal by the realtime server ends the tail at once, and a tail that
// never got to listen does not end in success.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { ApiError, NetworkError, UnreachableError } from '../../../src/core/errors.js';
import type { ApiRequest, HttpClient } from '../../../src/core/http/client.js';
import type { ConnectionHandlers } from '../../../src/core/realtime/connection.js';
import type { TailEvent } from '../../../src/core/realtime/events.js';
import { runChatTail, type TailOptions } from '../../../src/core/realtime/tail.js';
import { chatMessage, ids, messagesApi, range, startFakeTail, until } from '../../helpers/fake-chat-tail.js';

/** A reconnect as pusher-js goes through one: the channel is subscribed again, and the tail fills the gap. */
function reconnect(on: ConnectionHandlers) {
  on.state('connecting', 'connected');
  on.state('connected', 'connecting');
  on.subscribed();
}

describe('chat tail keeps going', () => {
  it('a conversation that can no longer be read (404) is dropped, named, and the others go on', async () => {
    const printed: TailEvent[] = [];
    const forgotten: number[] = [];
    const tail = startFakeTail({
      print: async (e) => void printed.push(e),
      forgotten: (id) => forgotten.push(id),
    });
    const fetch = tail.api.client.request.bind(tail.api.client);
    tail.api.client.request = async (request: ApiRequest) => {
      if (request.path.includes('/conversations/999/'))
        throw new ApiError({ status: 404, message: 'Conversation not found.' });
      return fetch(request);
    };
    await tail.subscribed();
    tail.handlers()?.event('created', { id: 100, conversation_id: 999, body: 'soon erased' });
    tail.send(1);
    await until(() => printed.length === 2, 'two messages');
    tail.api.publish(3); // 2 and 3 while the connection was down
    reconnect(tail.handlers()!);
    await until(() => printed.length === 4, 'the gap filled');
    tail.send(4);
    await until(() => printed.length === 5, 'a live message after the fill');
    tail.stop();
    await tail.done;
    expect(ids(printed)).toEqual([100, 1, 2, 3, 4]);
    expect(forgotten).toEqual([999]);
    expect(tail.lost).toContain(
      'conversation 999 can no longer be read (Conversation not found.): it is no longer followed',
    );
  });

  it.each([
    ['a 403 (about the token, not the conversation)', 403, undefined],
    ['a 404 of a conversation named with --conversation', 404, new Set([999])],
  ])('%s ends the tail, nothing forgotten', async (_, status, named) => {
    const forgotten: number[] = [];
    const tail = startFakeTail({
      print: async () => undefined,
      conversations: named,
      forgotten: (id) => forgotten.push(id),
    });
    tail.api.client.request = async () => {
      throw new ApiError({ status, message: 'no' });
    };
    await tail.subscribed();
    tail.handlers()?.event('created', { id: 100, conversation_id: 999, body: 'x' });
    reconnect(tail.handlers()!);
    const ended = await tail.done;
    expect((ended as ApiError).status).toBe(status);
    expect(forgotten).toEqual([]);
  });

  it('a server whose unpaged list always has a newer message cannot hold a fill for ever: exit 1', async () => {
    const tail = startFakeTail({ print: async () => undefined });
    tail.api.client.request = async (request: ApiRequest) => {
      const after = Number(new URLSearchParams(request.query as URLSearchParams).get('after'));
      const text = JSON.stringify({ data: [chatMessage(after + 1)] });
      return { status: 200, headers: {}, text, json: <T>() => JSON.parse(text) as T };
    };
    await tail.subscribed();
    tail.handlers()?.event('created', chatMessage(1));
    reconnect(tail.handlers()!);
    const ended = await tail.done;
    expect(ended).toBeInstanceOf(NetworkError);
    expect((ended as Error).message).toMatch(
      /^the server's list of messages of conversation 5 after 1 never ends/,
    );
  }, 20_000);

  it('a message event without a usable id is skipped and said, once, with the count at the end', async () => {
    const printed: TailEvent[] = [];
    const tail = startFakeTail({ print: async (e) => void printed.push(e) });
    await tail.subscribed();
    tail.handlers()?.event('created', { id: '7', conversation_id: 5, body: 'a string id' });
    tail.handlers()?.event('created', { id: 8, body: 'no conversation' });
    tail.send(1);
    await until(() => printed.length === 1, 'the good message');
    tail.stop();
    await tail.done;
    expect(tail.lost).toEqual([
      'a message event without a usable id was skipped',
      '2 message events without a usable id were skipped',
    ]);
  });

  it('a fill the API cannot serve for now (503) is tried again, and the gap is filled', async () => {
    const printed: TailEvent[] = [];
    const tail = startFakeTail({ print: async (e) => void printed.push(e) });
    let failures = 2;
    const fetch = tail.api.client.request.bind(tail.api.client);
    tail.api.client.request = async (request: ApiRequest) => {
      if (failures > 0 && request.path.endsWith('/messages')) {
        failures--;
        throw new ApiError({ status: 503, message: 'Service Unavailable' });
      }
      return fetch(request);
    };
    await tail.subscribed();
    tail.send(1);
    await until(() => printed.length === 1, 'the first message');
    tail.api.publish(4);
    reconnect(tail.handlers()!);
    await until(() => printed.length === 4, 'the gap filled after two failures');
    tail.stop();
    await tail.done;
    expect(ids(printed)).toEqual([1, 2, 3, 4]);
    expect(tail.status).toContain('could not fill the gap (Service Unavailable); trying again in 1s');
    expect(tail.status).toContain('could not fill the gap (Service Unavailable); trying again in 2s');
    expect(tail.status).toContain('filled 3 missed messages (after a reconnect)');
  }, 15_000);

  it('a fill answer that does not say where its pages end is asked again after its newest message', async () => {
    const printed: TailEvent[] = [];
    const tail = startFakeTail({ print: async (e) => void printed.push(e) });
    const afters: number[] = [];
    // A server that lists at most 5 messages, with neither meta nor links: 12 were sent while the tail was down.
    tail.api.client.request = async (request: ApiRequest) => {
      const after = Number(new URLSearchParams(request.query as URLSearchParams).get('after'));
      afters.push(after);
      const data = range(after + 1, Math.min(after + 5, 13)).map(chatMessage);
      const text = JSON.stringify({ data });
      return { status: 200, headers: {}, text, json: <T>() => JSON.parse(text) as T };
    };
    await tail.subscribed();
    tail.handlers()?.event('created', chatMessage(1));
    await until(() => printed.length === 1, 'the first message');
    reconnect(tail.handlers()!);
    await until(() => printed.length === 13, 'all 12 missed messages');
    tail.stop();
    await tail.done;
    expect(ids(printed)).toEqual(range(1, 13));
    expect(afters).toEqual([1, 6, 11, 13]);
  });

  it('fills failing for longer than --reconnect-timeout end the tail with their error', async () => {
    const tail = startFakeTail({ print: async () => undefined, reconnectTimeoutMs: 1_500 });
    tail.api.client.request = async () => {
      throw new ApiError({ status: 503, message: 'Service Unavailable' });
    };
    await tail.subscribed();
    tail.send(1);
    reconnect(tail.handlers()!);
    const ended = await tail.done;
    expect(ended).toBeInstanceOf(ApiError);
    expect((ended as ApiError).status).toBe(503);
  }, 15_000);
});

describe('chat tail ends', () => {
  it('at once when the realtime server refuses the connection without closing it (4009)', async () => {
    const tail = startFakeTail({ print: async () => undefined });
    await tail.subscribed();
    tail.handlers()?.error(4009, 'Connection is unauthorized');
    const ended = await tail.done;
    expect(ended).toBeInstanceOf(NetworkError);
    expect((ended as Error).message).toBe(
      'the realtime server refused the connection (4009 Connection is unauthorized)',
    );
  });

  it('with an error at --timeout when it never got to listen (exit 1, not 0)', async () => {
    const ended = await neverListening({ timeoutMs: 300 });
    expect(ended).toBeInstanceOf(NetworkError);
    expect((ended as Error).message).toBe(
      'could not listen on private-chat-log.1 at ws://127.0.0.1:1 within --timeout',
    );
  });

  it('naming the address it never reached, at --reconnect-timeout', async () => {
    const ended = await neverListening({ reconnectTimeoutMs: 1_000 });
    expect((ended as Error).message).toMatch(
      /^could not connect to the realtime server ws:\/\/127\.0\.0\.1:1 in \ds; giving up$/,
    );
  }, 10_000);

  it('a channel subscribed meanwhile (pusher-js after a reconnect) is not asked for again', async () => {
    let resubscribed = 0;
    const done = runChatTail({
      ...base(),
      timeoutMs: 6_500,
      connect: (_s, _c, _k, on) => {
        setImmediate(() => {
          on.state('connected', 'connecting');
          on.refused(new UnreachableError('cannot reach http://127.0.0.1:1: connection reset'));
          setTimeout(() => on.subscribed(), 100);
        });
        return { disconnect: () => undefined, resubscribe: () => void resubscribed++ };
      },
    }).catch((error: unknown) => error);
    expect(await done).toBeUndefined();
    expect(resubscribed).toBe(0);
  }, 15_000);

  it('a channel authorization the API cannot give for now is asked again; a refusal ends the tail', async () => {
    let handlers: ConnectionHandlers | undefined;
    let resubscribed = 0;
    const status: string[] = [];
    const done = runChatTail({
      ...base(),
      status: (line) => status.push(line),
      connect: (_s, _c, _k, on) => {
        handlers = on;
        setImmediate(() => {
          on.state('connected', 'connecting');
          on.refused(new UnreachableError('cannot reach http://127.0.0.1:1: connection refused'));
        });
        return { disconnect: () => undefined, resubscribe: () => void resubscribed++ };
      },
    }).catch((error: unknown) => error);
    await until(() => resubscribed === 1, 'the channel asked for again');
    expect(status).toContain(
      'could not authorize private-chat-log.1 (cannot reach http://127.0.0.1:1: connection refused); trying again in 5s',
    );
    handlers!.refused(new ApiError({ status: 403, message: 'This action is unauthorized.' }));
    const ended = await done;
    expect(ended).toBeInstanceOf(ApiError);
    expect((ended as ApiError).status).toBe(403);
  }, 15_000);
});

/** The options of a tail of a fake API, not yet with a connection. */
function base(): TailOptions {
  return {
    client: messagesApi().client as unknown as HttpClient,
    clock: systemClock,
    signal: new AbortController().signal,
    realtime: { key: 'key', host: '127.0.0.1', port: 1, tls: false },
    authEndpoint: 'http://127.0.0.1:1/broadcasting/auth',
    tenant: '1',
    kinds: ['created'],
    reconnectTimeoutMs: 60_000,
    print: async () => undefined,
    status: () => undefined,
  };
}

/** A tail whose connection never opens: how it ends. */
function neverListening(extra: Partial<TailOptions>): Promise<unknown> {
  return runChatTail({
    ...base(),
    ...extra,
    connect: () => ({ disconnect: () => undefined, resubscribe: () => undefined }),
  }).then(
    () => undefined,
    (error: unknown) => error,
  );
}
