// `chat tail` as a process: a realtime connection, gap fills over REST after every (re)subscription and after a
// wake from sleep, every message exactly once; ends on --timeout, Ctrl-C, a refusal or a connection lost for good.
// Delivery (a print that waits for the output to drain, or a POST the endpoint must accept) is one event at a time,
// in order; while it is slow the queue stays bounded, and the messages let go are fetched again over REST.
import { paths } from '../api/resources.js';
import { ApiError, CancelledError, NetworkError, RateLimitedError, UnreachableError } from '../errors.js';
import type { Clock } from '../clock.js';
import type { HttpClient } from '../http/client.js';
import { paginate } from '../paginate.js';
import { type ChatConnection, connectChat, type RealtimeSettings } from './connection.js';
import { type ChatEventKind, type ChatLog, conversationOf, isChatLog, type TailEvent } from './events.js';
import { ExactlyOnce, type ExactlyOnceLimits } from './exactly-once.js';
import { Spacing } from './spacing.js';
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
  /** `--checkpoint`: each conversation's last delivered id; what follows is filled before live events. */
  resume?: ReadonlyMap<number, number>;
  /** Told of each live message as it arrives, before it is queued (or let go): the checkpoint learns the conversation. */
  seen?(conversationId: number, messageId: number): void;
  /** Told of a conversation that can no longer be read (404, 403): no longer followed, the checkpoint may drop it. */
  forgotten?(conversationId: number): void;
  /**
   * Told of a conversation whose server sent a new message at or below where the tail resumed it (`resume`, --since):
   * it goes on from `afterId` (just before that message); the checkpoint must go back there too.
   */
  resumedLower?(conversationId: number, afterId: number): void;
  timeoutMs?: number;
  /** How long the connection may stay down before the tail gives up (exit 1). */
  reconnectTimeoutMs: number;
  /**
   * Delivers one event (prints it, or forwards it). `ending` aborts when the tail ends: a delivery that cannot finish
   * at once then throws CancelledError (a forward given up), and the event counts as not delivered.
   */
  print(event: TailEvent, ending: AbortSignal): Promise<void>;
  status(line: string): void;
  /** Lines saying the output misses events (default `status`): the CLI prints them even with --quiet. */
  lost?(line: string): void;
  /**
   * Told of each deleted or read event dropped while the queue is full (REST cannot fetch those again); when given,
   * it says so itself, instead of the `lost` lines about an output not being read.
   */
  dropped?(event: TailEvent): void;
  /** Events waiting to be printed (default MAX_QUEUED); tests make it small. */
  maxQueued?: number;
  /** The de-duplication's memory limits (tests make them small). */
  limits?: Partial<ExactlyOnceLimits>;
  /** The realtime client (default pusher-js); tests pass a fake. */
  connect?: typeof connectChat;
  /** Told the queue's length after each event is queued (tests check its bound). */
  watchQueue?: (length: number) => void;
}

/**
 * Events waiting to be delivered; past it new messages are let go and fetched again over REST once delivery resumes.
 * Order holds: a message let go queues its fill at once, so whatever arrives after it is delivered after that fill.
 */
export const MAX_QUEUED = 1_000;

type Work = { kind: 'created'; data: unknown } | { kind: 'event'; event: TailEvent } | FillWork;

/** A fill over REST; a quiet one (catching up after messages were let go) is reported only when it found some. */
interface FillWork {
  kind: 'fill';
  why: string;
  quiet: boolean;
  /** How long it waits its turn first (spacing.ts): what arrives meanwhile waits behind it, in order. */
  waitMs: number;
}

/** Answers without pagination asked again in one fill at most: a server whose list never ends cannot hold it for ever. */
const MAX_UNPAGED_ROUNDS = 1_000;

/** A wake from sleep shows as a tick that came this much later than due. */
const SLEEP_GAP_MS = 5_000;
const TICK_MS = 1_000;

/** A failure that may pass (the API unreachable, overloaded or rate-limited for now): worth trying again. */
function passing(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500 || error.status === 429 || error.status === 408;
  return error instanceof UnreachableError || error instanceof RateLimitedError;
}

/** An authorization given up, waiting its turn or in flight: a newer connection asked for its own meanwhile. */
class Superseded extends Error {
  constructor() {
    super('a newer connection is authorized instead');
  }
}

/** The realtime server as the profile names it, for messages. */
function realtimeAddress(realtime: RealtimeSettings): string {
  if (!realtime.host) return `of cluster ${realtime.cluster ?? 'mt1'}`;
  return `${realtime.tls ? 'wss' : 'ws'}://${realtime.host}${realtime.port ? `:${realtime.port}` : ''}`;
}

export function runChatTail(options: TailOptions): Promise<void> {
  const { client, clock, status } = options;
  const lost = options.lost ?? status;
  const maxQueued = options.maxQueued ?? MAX_QUEUED;
  const channelName = chatChannel(options.tenant);
  // Events are printed one at a time, in arrival order, each print waiting for the output to drain.
  const queue: Work[] = [];
  let draining: Promise<void> | undefined;
  let queuedFill: FillWork | undefined;
  let ending = false;
  let droppedOthers = 0;
  // Aborts a fill or a delivery in flight when the tail ends (--timeout, Ctrl-C, a failure), the request included.
  const ended = new AbortController();
  const fillSignal = AbortSignal.any([options.signal, ended.signal]);

  // The first fill of a --since tail prints history; every later one fills a gap.
  let historyDue = options.since !== undefined;
  let fillingHistory = false;
  const deliver = (log: ChatLog, source: 'realtime' | 'rest') =>
    options.print(
      {
        kind: 'created',
        source,
        data: log,
        ...(source === 'rest' && fillingHistory && { history: true }),
      },
      ended.signal,
    );
  const once = new ExactlyOnce(deliver, {
    wanted: options.conversations,
    fillDue: () => requestFill('catching up', true),
    // A conversation erased since it was seen (404, 410): the others go on, the tail must not end for it. Not one
    // named with --conversation (the user asked for it: exit 5), nor a 403 (about the token, not the conversation:
    // dropping every conversation would lose what a fixed token could still fill).
    unreadable: (error, id) =>
      error instanceof ApiError && [404, 410].includes(error.status) && !options.conversations?.has(id),
    forgotten: (id, error) => {
      lost(
        `conversation ${id} can no longer be read (${(error as Error).message}): it is no longer followed`,
      );
      options.forgotten?.(id);
    },
    wentBack: (id, messageId, resumedAfter) => {
      lost(
        `conversation ${id} resumed after message ${resumedAfter}, but the server sent message ${messageId}: its ids ` +
          `went back, or the start was not one of its messages; following it from ${messageId} on (what came before ` +
          'that while the tail was away may have been missed)',
      );
      options.resumedLower?.(id, messageId - 1);
    },
    limits: options.limits,
  });
  // Where each conversation starts: after --since, or after its checkpoint when that is later.
  const starts = new Map<number, number>();
  for (const [id, after] of options.resume ?? [])
    if (!options.conversations || options.conversations.has(id)) starts.set(id, after);
  if (options.since !== undefined)
    for (const id of options.conversations ?? [])
      starts.set(id, Math.max(starts.get(id) ?? 0, options.since));
  for (const [id, after] of starts) once.startAfter(id, after);

  function push(work: Work) {
    queue.push(work);
    options.watchQueue?.(queue.length);
    draining ??= drain();
  }
  async function drain() {
    for (let work = queue.shift(); work !== undefined; work = queue.shift()) {
      try {
        await perform(work);
        if (work.kind === 'fill') fillTrouble = undefined;
      } catch (error) {
        if (ending && error instanceof CancelledError) continue;
        if (work.kind === 'fill' && passing(error)) retryFill(work, error);
        else fail(error);
      }
    }
    draining = undefined; // in the same turn as the empty shift: a push after it starts a new drain
  }
  /** Since when fills have failed for a passing reason, and the wait before the next try. */
  let fillTrouble: { since: number; waitMs: number } | undefined;
  let fillRetry: ReturnType<typeof setTimeout> | undefined;
  /**
   * A fill the API could not serve for now (unreachable, 5xx, 429 past the client's retries): tried again, waits
   * doubling to 30 s, for as long as the connection itself may stay down (--reconnect-timeout); then the tail ends.
   */
  function retryFill(work: FillWork, error: unknown) {
    if (ending) return;
    const now = clock.now();
    fillTrouble ??= { since: now, waitMs: 1_000 };
    if (now - fillTrouble.since > options.reconnectTimeoutMs) return fail(error);
    const { waitMs } = fillTrouble;
    fillTrouble.waitMs = Math.min(waitMs * 2, 30_000);
    status(
      `could not fill the gap (${(error as Error).message}); trying again in ${Math.round(waitMs / 1000)}s`,
    );
    clearTimeout(fillRetry);
    fillRetry = setTimeout(() => requestFill(work.why, work.quiet), waitMs);
  }
  async function perform(work: Work) {
    if (work.kind === 'created') return once.live(work.data);
    if (work.kind === 'event') return options.print(work.event, ended.signal);
    // Its turn waited for while it is still the queued fill: a fill asked for meanwhile joins it.
    if (work.waitMs > 0 && !ending) await clock.sleep(work.waitMs, fillSignal).catch(() => undefined);
    if (queuedFill === work) queuedFill = undefined;
    if (ending) return; // the tail is over: what the queue holds is printed, no new request is made
    const history = historyDue;
    historyDue = false;
    fillingHistory = history;
    const filled = await once.fill(fetchAfter, 'due').finally(() => (fillingHistory = false));
    const messages = `${filled} ${history ? 'earlier' : 'missed'} message${filled === 1 ? '' : 's'}`;
    if (filled > 0 || !work.quiet)
      status(history ? `printed ${messages} (--since)` : `filled ${messages} (${work.why})`);
  }
  /** One fill waits in the queue at most: a later request joins it (and makes it speak, unless quiet too). */
  function requestFill(why: string, quiet: boolean, waitMs = 0) {
    if (queuedFill) {
      if (queuedFill.quiet && !quiet) Object.assign(queuedFill, { why, quiet });
      return;
    }
    queuedFill = { kind: 'fill', why, quiet, waitMs };
    push(queuedFill);
  }
  /**
   * A live event: queued while there is room; past the limit a message is let go (to be fetched by REST later, in
   * order) and another event dropped (and said: REST cannot fetch it again).
   */
  function arrive(work: Work) {
    if (queue.length < maxQueued) return push(work);
    if (work.kind === 'created') return once.letGo(work.data);
    if (work.kind !== 'event') return;
    droppedOthers++;
    if (options.dropped) options.dropped(work.event);
    else if (droppedOthers === 1)
      lost(
        'the output is not being read: deleted and read events are dropped until it is (REST cannot fetch them)',
      );
  }

  let connection: ChatConnection | undefined;
  let settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  let subscriptions = 0;
  let downSince: number | undefined = clock.now();
  let lastTick = clock.now();
  /** Message events skipped for want of a usable id. */
  let unusable = 0;
  /** Whether the channel is subscribed on the connection now: a connection without it counts as down. */
  let subscribedNow = false;
  /** The last passing failure to authorize the channel, told if the tail gives up. */
  let lastRefusal: unknown;
  let resubscribing: ReturnType<typeof setTimeout> | undefined;
  // A server that drops the connection again and again, or says the channel is subscribed again and again, would
  // have the tail authorize and fill at its pace: both are spaced out (spacing.ts).
  const authorizations = new Spacing(clock);
  const reconnectFills = new Spacing(clock);
  /**
   * The newest authorization asked for (pusher-js asks one per connection): an older one, waiting its turn or in
   * flight, is given up (Superseded). Its signature is for a connection gone: pusher-js would send it on the new one,
   * which the server refuses for good (4009).
   */
  let newestAuthorization: AbortController | undefined;
  const authorize = channelAuthorizer(client, options.authEndpoint, options.tenant);
  async function authorizeSpaced(socketId: string, channel: string): Promise<string> {
    newestAuthorization?.abort(new Superseded());
    const turn = (newestAuthorization = new AbortController());
    await clock.sleep(authorizations.next(), AbortSignal.any([fillSignal, turn.signal]));
    const auth = await authorize(socketId, channel).catch((error: unknown) => {
      throw turn.signal.aborted ? new Superseded() : error;
    });
    if (turn.signal.aborted) throw new Superseded();
    return auth;
  }
  /**
   * The fill after a reconnect, spaced out: it waits its turn in the queue, the live messages arriving meanwhile
   * behind it (each conversation stays in order); a reconnect while one is queued joins it.
   */
  function fillAfterReconnect() {
    fill('after a reconnect', queuedFill ? 0 : reconnectFills.next());
  }

  /**
   * The messages after `afterId`, every page. A list that does not say where its pages end (no meta.last_page, no
   * links) may have been cut short by the server: it is asked again after the newest message it held, until it brings
   * nothing newer (one request more per fill, only from such a server).
   */
  const fetchAfter = async function* (conversationId: number, afterId: number) {
    for (let after = afterId, rounds = 0; ; rounds++) {
      if (rounds > MAX_UNPAGED_ROUNDS)
        throw new NetworkError(
          `the server's list of messages of conversation ${conversationId} after ${afterId} never ends ` +
            `(${MAX_UNPAGED_ROUNDS} answers without pages, each with newer messages); stopping`,
        );
      let newest = after;
      let paged = false;
      const query: [string, string][] = [['after', String(after)]];
      for await (const page of paginate(
        client,
        paths.messages(conversationId),
        query,
        { all: true },
        fillSignal,
      )) {
        paged ||= page.paged === true;
        for (const record of page.records) if (isChatLog(record) && record.id > newest) newest = record.id;
        yield* page.records;
      }
      // paginate stops quietly when aborted: a fill cut short must not count as complete.
      if (fillSignal.aborted) throw new CancelledError('interrupted');
      if (paged || newest <= after) return;
      after = newest;
    }
  };
  /** Every conversation seen or named (after a reconnect, a wake, or at the start with --since). */
  const fill = (why: string, waitMs = 0) => {
    once.markAllDue();
    requestFill(why, why === 'start', waitMs);
  };

  function finish(error?: unknown) {
    if (!settle) return;
    const { resolve, reject } = settle;
    settle = undefined;
    clearInterval(ticker);
    clearTimeout(timeout);
    clearTimeout(fillRetry);
    clearTimeout(resubscribing);
    options.signal.removeEventListener('abort', onAbort);
    connection?.disconnect();
    ending = true;
    ended.abort();
    if (droppedOthers > 1 && !options.dropped)
      lost(`${droppedOthers} deleted and read events were dropped: the output was not read`);
    if (unusable > 1) lost(`${unusable} message events without a usable id were skipped`);
    // Whatever was accepted before the end is printed before the end.
    void (async () => {
      while (draining) await draining;
      if (error === undefined) resolve();
      else reject(error);
    })();
  }
  const fail = (error: unknown) => finish(error);
  const onAbort = () => finish(new CancelledError('interrupted'));

  const ticker = setInterval(() => {
    const now = clock.now();
    const late = now - lastTick - TICK_MS;
    lastTick = now;
    if (late > SLEEP_GAP_MS) fill(`woke after ${Math.round(late / 1000)}s`);
    if (downSince !== undefined && now - downSince > options.reconnectTimeoutMs) {
      const seconds = Math.round((now - downSince) / 1000);
      fail(
        lastRefusal ??
          new NetworkError(
            subscriptions === 0
              ? `could not connect to the realtime server ${realtimeAddress(options.realtime)} in ${seconds}s; giving up`
              : `lost the realtime connection for ${seconds}s; giving up`,
          ),
      );
    }
  }, TICK_MS);
  // --timeout ends a tail that listened; one that never got to listen failed.
  const timeout =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(
          () =>
            finish(
              subscriptions > 0
                ? undefined
                : (lastRefusal ??
                    new NetworkError(
                      `could not listen on ${channelName} at ${realtimeAddress(options.realtime)} within --timeout`,
                    )),
            ),
          options.timeoutMs,
        );

  return new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
    if (options.signal.aborted) return onAbort();
    options.signal.addEventListener('abort', onAbort);
    status(`connecting to the realtime server for ${channelName}`);
    connection = (options.connect ?? connectChat)(options.realtime, channelName, options.kinds, {
      authorize: authorizeSpaced,
      refused: (error) => {
        // An authorization given up for a newer connection's: not a refusal.
        if (error instanceof Superseded) return;
        // The API could not sign for now (unreachable, 5xx): asked again, as a connection lost is, until
        // --reconnect-timeout. A refusal (401 after a refresh, 403) ends the tail with its exit code.
        if (!passing(error)) return fail(error);
        if (ending) return;
        lastRefusal = error;
        downSince ??= clock.now();
        status(`could not authorize ${channelName} (${(error as Error).message}); trying again in 5s`);
        clearTimeout(resubscribing);
        resubscribing = setTimeout(() => connection?.resubscribe(), 5_000);
      },
      error: (code, message) => {
        // 4000: TLS only. pusher-js would go on over TLS to the address set for clear text, failing for ever: the
        // profile says which it is. Exit 1: the server's answer ends it, after a connection (no usage error).
        if (code === 4000 && !options.realtime.tls)
          return fail(
            new NetworkError(
              'the realtime server accepts only TLS connections (4000): set realtime.tls true in the profile',
            ),
          );
        // 4001-4099: the server will not take this connection as it is (an unknown key, a signature it refuses:
        // 4009). Some servers say so without closing it: the tail ends now rather than listen to nothing.
        if (code !== undefined && code >= 4001 && code <= 4099)
          fail(new NetworkError(`the realtime server refused the connection (${code} ${message})`));
      },
      state: (current) => {
        if (current === 'connected' && subscribedNow) downSince = undefined;
        if (current !== 'connected') {
          subscribedNow = false;
          downSince ??= clock.now();
        }
        if (current === 'connecting' && subscriptions > 0) status('reconnecting…');
        if (current === 'unavailable') status('the realtime server is unavailable; still trying');
        if (current === 'failed')
          fail(new NetworkError('the realtime connection failed: no usable transport'));
        if (current === 'disconnected' && settle) fail(new NetworkError('disconnected'));
      },
      subscribed: () => {
        // Said again on the same connection: nothing can have been missed since it was said first.
        if (subscribedNow) return;
        clearTimeout(resubscribing); // subscribed meanwhile (pusher-js's own retry after a reconnect): nothing to redo
        subscribedNow = true;
        downSince = undefined;
        lastRefusal = undefined;
        subscriptions++;
        status(subscriptions === 1 ? `connected; listening on ${channelName}` : 'reconnected');
        if (subscriptions > 1) fillAfterReconnect();
        else if (options.since !== undefined) fill('start');
        else if (starts.size > 0) fill('from the checkpoint');
      },
      event: (kind, data) => {
        if (kind === 'created') {
          // A message without a whole-number id and conversation cannot be printed once and only once: skipped, said.
          if (!isChatLog(data)) {
            if (unusable++ === 0) lost('a message event without a usable id was skipped');
            return;
          }
          if (!options.conversations || options.conversations.has(data.conversation_id))
            options.seen?.(data.conversation_id, data.id);
          return arrive({ kind: 'created', data });
        }
        const event: TailEvent = { kind, source: 'realtime', data: (data ?? {}) as Record<string, unknown> };
        const conversation = conversationOf(event);
        if (options.conversations && (conversation === undefined || !options.conversations.has(conversation)))
          return;
        arrive({ kind: 'event', event });
      },
    });
  });
}
