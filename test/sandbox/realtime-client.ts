// Realtime test clients: the real pusher-js configured for the sandbox (as `clinic chat tail` would), and a raw ws
// socket for frames pusher-js never sends.
import PusherNS from 'pusher-js';
import type { Channel, Options } from 'pusher-js';
import WebSocket from 'ws';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { callHeaders, type Json } from './client.js';

// pusher-js's typings use `export default` on a CJS build: under NodeNext this is how it constructs.
const Pusher = PusherNS as unknown as typeof PusherNS.default;
export type PusherClient = InstanceType<typeof Pusher>;

export interface PusherClientOptions {
  /** Defaults to the admin's token; null sends no Authorization header. */
  token?: string | null;
  /** Defaults to 1; null sends no X-Tenant header. */
  tenant?: number | null;
  /** Anything else, e.g. a customHandler for channelAuthorization. */
  overrides?: Partial<Options>;
}

const clients: PusherClient[] = [];

export function connectPusher(sandbox: RunningSandbox, options: PusherClientOptions = {}): PusherClient {
  const { realtime } = sandbox.info;
  const headersProvider = () => callHeaders(sandbox, options);
  const pusher = new Pusher(realtime.key, {
    cluster: 'mt1',
    wsHost: realtime.host,
    wsPort: realtime.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: { endpoint: realtime.auth_endpoint, transport: 'ajax', headersProvider },
    ...options.overrides,
  });
  clients.push(pusher);
  return pusher;
}

/** For afterEach: pusher-js keeps reconnecting until told to stop. */
export function disconnectAll(): void {
  for (const pusher of clients.splice(0)) pusher.disconnect();
}

interface Bindable {
  bind(event: string, callback: (data: Json) => void): unknown;
  unbind(event: string, callback: (data: Json) => void): unknown;
}

/** The next emission of `event` on a channel or a connection. */
export function nextEvent(target: Bindable, event: string, timeoutMs = 3000): Promise<Json> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      target.unbind(event, listener);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (data: Json) => {
      clearTimeout(timer);
      target.unbind(event, listener);
      resolve(data);
    };
    target.bind(event, listener);
  });
}

export interface ReceivedEvent {
  event: string;
  data: Json;
}

/** Every event a channel hears, pusher-js's own `pusher:*` ones left out. */
export function recordEvents(channel: Channel): ReceivedEvent[] {
  const received: ReceivedEvent[] = [];
  channel.bind_global((event: string, data: Json) => {
    if (!event.startsWith('pusher:')) received.push({ event, data });
  });
  return received;
}

/** Subscribes and waits for the server's confirmation. */
export async function subscribed(pusher: PusherClient, channelName: string): Promise<Channel> {
  const channel = pusher.subscribe(channelName);
  await nextEvent(channel, 'pusher:subscription_succeeded');
  return channel;
}

export async function waitUntil(
  condition: () => boolean,
  timeoutMs = 3000,
  what = 'condition',
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await sleep(10);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A bare WebSocket on /app/{key}: every frame it receives, parsed (data too when it is a JSON string). */
export class RawSocket {
  readonly frames: Json[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const frame = JSON.parse(raw.toString());
      if (typeof frame.data === 'string' && frame.event !== 'pusher:connection_established') {
        frame.data = JSON.parse(frame.data);
      }
      this.frames.push(frame);
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
  }

  static open(
    sandbox: RunningSandbox,
    path = `/app/${sandbox.info.realtime.key}?protocol=7`,
  ): Promise<RawSocket> {
    const socket = new WebSocket(`ws://127.0.0.1:${sandbox.port}${path}`);
    const raw = new RawSocket(socket);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(raw));
      socket.once('error', reject);
    });
  }

  /** The socket id from pusher:connection_established. */
  async socketId(): Promise<string> {
    const established = await this.next('pusher:connection_established');
    return JSON.parse(established.data).socket_id;
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  sendBinary(bytes: Uint8Array): void {
    this.socket.send(bytes, { binary: true });
  }

  /** The first frame (already received or still to come) with this event after `from`. */
  async next(event: string, from = 0, timeoutMs = 3000): Promise<Json> {
    let found: Json;
    await waitUntil(
      () => (found = this.frames.slice(from).find((frame) => frame.event === event)) !== undefined,
      timeoutMs,
      `frame ${event}`,
    );
    return found;
  }

  /** Sends a frame and waits for the answer with that event. */
  async ask(frame: unknown, answer: string): Promise<Json> {
    const from = this.frames.length;
    this.send(frame);
    return this.next(answer, from);
  }

  close(): void {
    this.socket.terminate();
  }
}
