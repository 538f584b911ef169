// `chat tail` as a process: a realtime connection, gap fills over REST after every (re)subscription and after a
// wake from sleep, every message exactly once; ends on --timeout, Ctrl-C, a refusal or a connection lost for good.
import { paths } from '../api/resources.js';
import { CancelledError, NetworkError } from '../errors.js';
import type { Clock } from '../clock.js';
import type { HttpClient } from '../http/client.js';
import { paginate } from '../paginate.js';
import { type ChatConnection, connectChat, type RealtimeSettings } from './connection.js';
import { type ChatEventKind, conversationOf, type TailEvent } from './events.js';
import { ExactlyOnce } from './exactly-once.js';
import { channelAuthorizer, chatChannel } from './target.js';

export interface TailOptions {
  client: HttpClient;
  clock: Clock;
  signal: AbortSignal;
  realtime: RealtimeSettings;
  authEndpoint: string;
  tenant: string;
  kinds: readonly ChatEventKind[];
  conversations?: ReadonlySet<number>;
  /** `--since`: print what follows this message in each named conversation first. */
  since?: number;
  timeoutMs?: number;
  /** How long the connection may stay down before the tail gives up (exit 1). */
  reconnectTimeoutMs: number;
  print(event: TailEvent): Promise<void>;
  status(line: string): void;
}

/** A wake from sleep shows as a tick that came this much later than due. */
const SLEEP_GAP_MS = 5_000;
const TICK_MS = 1_000;

export function runChatTail(options: TailOptions): Promise<void> {
  const { client, clock, status } = options;
  const channelName = chatChannel(options.tenant);
  let queue = Promise.resolve(); // events are printed one at a time, in arrival order
  const enqueue = (work: () => Promise<void>) => {
    queue = queue.then(work).catch((error: unknown) => fail(error));
    return queue;
  };
  const once = new ExactlyOnce(
    (log, source) => options.print({ kind: 'created', source, data: log }),
    options.conversations,
  );
  if (options.since !== undefined)
    for (const id of options.conversations ?? []) once.startAfter(id, options.since);

  let connection: ChatConnection | undefined;
  let settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  let subscriptions = 0;
  let downSince: number | undefined = clock.now();
  let lastTick = clock.now();
  let refusedBy4xxx: string | undefined;

  const fetchAfter = async function* (conversationId: number, afterId: number) {
    const query: [string, string][] = [['after', String(afterId)]];
    for await (const page of paginate(
      client,
      paths.messages(conversationId),
      query,
      { all: true },
      options.signal,
    ))
      yield* page.records;
  };
  const fill = (why: string) =>
    enqueue(async () => {
      const filled = await once.fill(fetchAfter);
      if (filled > 0 || why !== 'start')
        status(`filled ${filled} missed message${filled === 1 ? '' : 's'} (${why})`);
    });

  function finish(error?: unknown) {
    if (!settle) return;
    const { resolve, reject } = settle;
    settle = undefined;
    clearInterval(ticker);
    clearTimeout(timeout);
    options.signal.removeEventListener('abort', onAbort);
    connection?.disconnect();
    // Whatever was accepted before the end is printed before the end.
    void queue.then(() => (error === undefined ? resolve() : reject(error)));
  }
  const fail = (error: unknown) => finish(error);
  const onAbort = () => finish(new CancelledError('interrupted'));

  const ticker = setInterval(() => {
    const now = clock.now();
    const late = now - lastTick - TICK_MS;
    lastTick = now;
    if (late > SLEEP_GAP_MS) void fill(`woke after ${Math.round(late / 1000)}s`);
    if (downSince !== undefined && now - downSince > options.reconnectTimeoutMs)
      fail(
        new NetworkError(
          `lost the realtime connection for ${Math.round((now - downSince) / 1000)}s; giving up`,
        ),
      );
  }, TICK_MS);
  const timeout = options.timeoutMs === undefined ? undefined : setTimeout(() => finish(), options.timeoutMs);

  return new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
    if (options.signal.aborted) return onAbort();
    options.signal.addEventListener('abort', onAbort);
    status(`connecting to the realtime server for ${channelName}`);
    connection = connectChat(options.realtime, channelName, options.kinds, {
      authorize: channelAuthorizer(client, options.authEndpoint, options.tenant),
      refused: (error) => fail(error),
      error: (code, message) => {
        if (code !== undefined && code >= 4001 && code <= 4099) refusedBy4xxx = `${code} ${message}`;
      },
      state: (current) => {
        if (current === 'connected') downSince = undefined;
        else downSince ??= clock.now();
        if (current === 'connecting' && subscriptions > 0) status('reconnecting…');
        if (current === 'unavailable') status('the realtime server is unavailable; still trying');
        if (current === 'failed')
          fail(new NetworkError('the realtime connection failed: no usable transport'));
        if (current === 'disconnected' && settle) {
          const why = refusedBy4xxx
            ? `the realtime server refused the connection (${refusedBy4xxx})`
            : 'disconnected';
          fail(new NetworkError(why));
        }
      },
      subscribed: () => {
        subscriptions++;
        status(subscriptions === 1 ? `connected; listening on ${channelName}` : 'reconnected');
        if (subscriptions > 1) void fill('after a reconnect');
        else if (options.since !== undefined) void fill('start');
      },
      event: (kind, data) => {
        if (kind === 'created') {
          void enqueue(() => once.live(data));
          return;
        }
        const event: TailEvent = { kind, source: 'realtime', data: (data ?? {}) as Record<string, unknown> };
        const conversation = conversationOf(event);
        if (options.conversations && (conversation === undefined || !options.conversations.has(conversation)))
          return;
        void enqueue(() => options.print(event));
      },
    });
  });
}
