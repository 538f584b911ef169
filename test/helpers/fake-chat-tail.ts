// `chat tail` without a server, for unit tests of runChatTail: the REST message list of one conversation (messages
// 1..published, `after`, pages, Laravel meta) and a realtime connection that connects and subscribes at once.
import { systemClock } from '../../src/core/clock.js';
import type { ApiRequest, ApiResponse, HttpClient } from '../../src/core/http/client.js';
import type { ConnectionHandlers } from '../../src/core/realtime/connection.js';
import type { TailEvent } from '../../src/core/realtime/events.js';
import { runChatTail, type TailOptions } from '../../src/core/realtime/tail.js';

export const CONVERSATION = 5;
export const chatMessage = (id: number) => ({ id, conversation_id: CONVERSATION, body: `m${id}` });

export function messagesApi() {
  let published = 0;
  const afters: number[] = [];
  const client = {
    async request(request: ApiRequest): Promise<ApiResponse> {
      const query = new URLSearchParams(request.query as URLSearchParams);
      const after = Number(query.get('after'));
      const page = Number(query.get('page'));
      const perPage = Number(query.get('per_page'));
      if (page === 1) afters.push(after);
      const all = Array.from({ length: published }, (_, i) => chatMessage(i + 1)).filter((m) => m.id > after);
      const lastPage = Math.max(1, Math.ceil(all.length / perPage));
      const text = JSON.stringify({
        data: all.slice((page - 1) * perPage, page * perPage),
        meta: { current_page: page, last_page: lastPage, per_page: perPage, total: all.length },
      });
      return { status: 200, headers: {}, text, json: <T>() => JSON.parse(text) as T };
    },
  };
  return { client, afters, publish: (count: number) => (published = Math.max(published, count)) };
}

/** The options of a tail of `api` (created events, tenant 1); `handlers()` reach its connection once it is made. */
export function fakeTail(api: ReturnType<typeof messagesApi>) {
  let handlers: ConnectionHandlers | undefined;
  const options: Omit<TailOptions, 'signal' | 'print' | 'status'> = {
    client: api.client as unknown as HttpClient,
    clock: systemClock,
    realtime: { key: 'key', host: '127.0.0.1', port: 1, tls: false },
    authEndpoint: 'http://127.0.0.1:1/broadcasting/auth',
    tenant: '1',
    kinds: ['created'],
    reconnectTimeoutMs: 60_000,
    connect: (_settings, _channel, _kinds, on) => {
      handlers = on;
      setImmediate(() => {
        on.state('connected', 'connecting');
        on.subscribed();
      });
      return { disconnect: () => undefined, resubscribe: () => undefined };
    },
  };
  return { options, handlers: () => handlers };
}

/** runChatTail over a fake API with `extra` options: what it said, how it ended, and ways to feed it events. */
export function startFakeTail(extra: Partial<TailOptions> & { print: TailOptions['print'] }) {
  const api = messagesApi();
  const tail = fakeTail(api);
  const controller = new AbortController();
  const status: string[] = [];
  const lost: string[] = [];
  const done = runChatTail({
    ...tail.options,
    signal: controller.signal,
    status: (line) => status.push(line),
    lost: (line) => lost.push(line),
    ...extra,
  }).catch((error: unknown) => error);
  return {
    api,
    status,
    lost,
    done,
    stop: () => controller.abort(),
    /** The message is on the server, then its live event arrives. */
    send(id: number) {
      api.publish(id);
      tail.handlers()?.event('created', chatMessage(id));
    },
    event: (kind: 'read' | 'deleted', data: Record<string, unknown>) => tail.handlers()?.event(kind, data),
    handlers: tail.handlers,
    subscribed: () => until(() => status.some((line) => line.startsWith('connected')), 'the subscription'),
  };
}

/** A print that waits while its gate is shut, like a write to a pipe nobody reads or a POST to an endpoint down. */
export function gatedOutput() {
  const printed: TailEvent[] = [];
  let open: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => (open = resolve));
  return {
    printed,
    print: async (event: TailEvent) => {
      await gate;
      printed.push(event);
    },
    open: () => open(),
    /** Shuts the gate again. */
    close: () => (gate = new Promise<void>((resolve) => (open = resolve))),
  };
}

export const ids = (events: TailEvent[]) => events.map((e) => e.data.id as number);
export const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Waits (polling) until `predicate` holds; fails after 20 s naming `what`. */
export async function until(predicate: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
