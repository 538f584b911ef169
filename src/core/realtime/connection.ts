// One pusher-js connection to a tenant's private chat channel, authorized through our own HTTP client, reporting
// its state changes, each (re)subscription and the raw chat events. Reconnection itself is pusher-js's.
import type PusherNS from 'pusher-js';
import type { Channel, Options } from 'pusher-js';
import { lazyRequire } from '../lazy-require.js';
import { MAX_REALTIME_MESSAGE_BYTES } from '../limits.js';
import { CHAT_EVENTS, type ChatEventKind } from './events.js';
import { pusherCanTake } from './frame-guard.js';

const pusherClass = lazyRequire<typeof PusherNS.default>('pusher-js');

type WebSocketClass = new (url: string, protocols?: string[], options?: { maxLength?: number }) => object;
interface NodeRuntime {
  getWebSocketAPI(): WebSocketClass;
}
type MessageHandler = (message: { data: unknown }) => void;
type CloseEvent = { code?: number; reason?: string; wasClean?: boolean };
type CloseHandler = (event: CloseEvent) => void;
const guarded = new WeakSet<object>();
const messageHandlers = new WeakMap<object, MessageHandler>();
const closeHandlers = new WeakMap<object, CloseHandler>();

/**
 * pusher-js opens its WebSocket (faye-websocket) with no options, so one message may be 64 MiB, all buffered. Its
 * runtime hands the WebSocket class out through getWebSocketAPI: the same class is handed out with a smaller
 * maxLength, past which faye closes the connection (1009, "too large") instead of reading on; pusher-js reconnects.
 * The class also drops the frames pusher-js would throw on (see frame-guard) before it decodes them: it takes
 * messages through the standard `onmessage`, which is wrapped as it is set. Were that hook ever bypassed, frames
 * would reach pusher-js unfiltered, as before. Its `onclose` is wrapped too: a close code of 4200-4299 ("reconnect at
 * once") reaches pusher-js as 4100 ("reconnect after a second"): a server closing every connection so would otherwise
 * have it reconnect, and ask the API to authorize the channel, hundreds of times a second.
 */
function guardWebSocket(Pusher: typeof PusherNS.default): void {
  const runtime = (Pusher as unknown as { Runtime: NodeRuntime }).Runtime;
  if (guarded.has(runtime)) return;
  const WebSocket = runtime.getWebSocketAPI();
  class GuardedWebSocket extends WebSocket {
    constructor(url: string, protocols?: string[]) {
      super(url, protocols, { maxLength: MAX_REALTIME_MESSAGE_BYTES });
    }
    get onmessage(): MessageHandler | null {
      return messageHandlers.get(this) ?? null;
    }
    set onmessage(handler: MessageHandler | null | undefined) {
      if (handler) messageHandlers.set(this, takingOnly(handler));
      else messageHandlers.delete(this);
    }
    get onclose(): CloseHandler | null {
      return closeHandlers.get(this) ?? null;
    }
    set onclose(handler: CloseHandler | null | undefined) {
      if (handler) closeHandlers.set(this, (event) => handler(reconnectingAfterAPause(event)));
      else closeHandlers.delete(this);
    }
  }
  runtime.getWebSocketAPI = () => GuardedWebSocket;
  guarded.add(runtime);
}

/** The handler, left unaware of the frames pusher-js cannot take: the connection reads on past them. */
const takingOnly =
  (handler: MessageHandler): MessageHandler =>
  (message) => {
    if (pusherCanTake(message.data)) handler(message);
  };

/** A close event whose code asks for a reconnect at once (4200-4299), as one asking for it after a pause (4100). */
function reconnectingAfterAPause(event: CloseEvent): CloseEvent {
  const { code } = event;
  if (code === undefined || code < 4200 || code > 4299) return event;
  return { code: 4100, reason: event.reason, wasClean: event.wasClean };
}

export interface RealtimeSettings {
  key: string;
  /** Hosted Pusher. */
  cluster?: string;
  /** A self-hosted Pusher-protocol server. */
  host?: string;
  port?: number;
  tls: boolean;
}

export interface ConnectionHandlers {
  /** socket_id and channel name → the `auth` string, or a thrown error (refused). */
  authorize(socketId: string, channelName: string): Promise<string>;
  state(current: string, previous: string): void;
  /** Every `subscription_succeeded`: the first, and one after each reconnect. */
  subscribed(): void;
  /** The channel authorization failed (the error `authorize` threw, or the server's refusal). */
  refused(error: unknown): void;
  /** A connection-level error frame (e.g. 4001 unknown app key, 4009 unauthorized). */
  error(code: number | undefined, message: string): void;
  event(kind: ChatEventKind, data: unknown): void;
}

interface ErrorData {
  code?: number;
  message?: string;
}

export interface ChatConnection {
  disconnect(): void;
  /** Asks for the channel again (after its authorization failed for a reason that may pass). */
  resubscribe(): void;
}

/** Dead-connection detection: a ping after 20 s of silence, given up 5 s later (pusher-js defaults wait 150 s). */
const ACTIVITY_TIMEOUT_MS = 20_000;
const PONG_TIMEOUT_MS = 5_000;

export function connectChat(
  settings: RealtimeSettings,
  channelName: string,
  kinds: readonly ChatEventKind[],
  on: ConnectionHandlers,
): ChatConnection {
  const options: Options = {
    cluster: settings.cluster ?? 'mt1', // pusher-js insists on one, even for a self-hosted server
    forceTLS: settings.tls,
    enabledTransports: settings.tls ? ['wss'] : ['ws'],
    disableStats: true,
    activityTimeout: ACTIVITY_TIMEOUT_MS,
    pongTimeout: PONG_TIMEOUT_MS,
    ...(settings.host
      ? { wsHost: settings.host, wsPort: settings.port ?? 80, wssPort: settings.port ?? 443 }
      : {}),
    channelAuthorization: {
      endpoint: 'unused',
      transport: 'ajax',
      customHandler: ({ socketId, channelName: name }, callback) => {
        on.authorize(socketId, name).then(
          (auth) => callback(null, { auth }),
          (error: Error) => {
            on.refused(error);
            callback(error, null);
          },
        );
      },
    },
  };
  const Pusher = pusherClass();
  guardWebSocket(Pusher);
  const pusher = new Pusher(settings.key, options);
  pusher.connection.bind('state_change', ({ current, previous }: { current: string; previous: string }) =>
    on.state(current, previous),
  );
  pusher.connection.bind('error', (error: { data?: ErrorData; error?: { data?: ErrorData } }) => {
    // A refusal in the handshake (4001 unknown app key…) comes wrapped: {type: 'WebSocketError', error: {data}}.
    const data = error?.data ?? error?.error?.data;
    if (data?.code !== undefined) on.error(data.code, data.message ?? 'error');
  });
  let channel: Channel;
  const subscribe = () => {
    channel = pusher.subscribe(channelName);
    channel.bind('pusher:subscription_succeeded', () => on.subscribed());
    channel.bind('pusher:subscription_error', (error: { status?: number; error?: string }) => {
      // Our own authorize already reported its error; this covers a refusal pusher-js found itself.
      if (error?.status !== undefined && error.status !== 0)
        on.refused(new Error(error.error ?? `HTTP ${error.status}`));
    });
    for (const kind of kinds) channel.bind(CHAT_EVENTS[kind], (data: unknown) => on.event(kind, data));
  };
  subscribe();
  return {
    disconnect: () => pusher.disconnect(),
    resubscribe: () => {
      // Subscribed or on its way (pusher-js subscribes again itself after a reconnect): asking again would bind a
      // second set of handlers on the same channel, each event told twice.
      if (channel.subscribed || channel.subscriptionPending) return;
      pusher.unsubscribe(channelName);
      subscribe();
    },
  };
}
