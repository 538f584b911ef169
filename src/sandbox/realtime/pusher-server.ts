// The Pusher protocol v7 endpoint `/app/{key}` on the sandbox's own HTTP server (ws in noServer mode): connections,
// signed private-channel subscriptions, broadcasts to subscribers, and the outages tests provoke.
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import { randomInt } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import type { RequestTarget } from '../dispatcher.js';
import type { ChannelAuthority } from './channel-auth.js';
import {
  CHAT_LOG_CHANNEL,
  type ClientFrame,
  connectionEstablished,
  errorFrame,
  ErrorCode,
  eventFrame,
  pongFrame,
  readClientFrame,
  subscriptionSucceeded,
} from './protocol.js';

/** What the server tells clients: Pusher's own default (pusher-js pings after this much silence). */
export const ACTIVITY_TIMEOUT_SECONDS = 120;
/** Pusher caps messages at 10 KB; anything much larger is not a client of this API. */
const MAX_FRAME_BYTES = 64 * 1024;
const APP_PATH = /^\/app\/([^/]+)\/?$/;

export interface RealtimeClient {
  socketId: string;
  channels: string[];
}

interface Connection {
  socketId: string;
  socket: WebSocket;
  channels: Set<string>;
}

export class PusherServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  private readonly connections = new Set<Connection>();
  private blockedUntilMs = 0;
  private closed = false;

  constructor(
    private readonly authority: ChannelAuthority,
    private readonly now: () => number,
  ) {}

  /** For the HTTP server's `upgrade` event on paths under /app. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, target: RequestTarget): void {
    const appKey = APP_PATH.exec(target.path)?.[1];
    if (appKey === undefined) return refuseUpgrade(socket, 404);
    if (this.closed) return refuseUpgrade(socket, 503);
    // During an outage the socket opens and dies at once: pusher-js reads that as "back off" and retries a second
    // later. (An HTTP refusal here would make it wait out its 15 s connection timeout before the next try.)
    const blocked = this.now() < this.blockedUntilMs;
    this.wss.handleUpgrade(req, socket, head, (ws) =>
      blocked ? ws.terminate() : this.open(ws, appKey, target.query.get('protocol')),
    );
  }

  /** Sends an event to every connection subscribed to the channel. */
  publish(channel: string, event: string, payload: unknown): void {
    const frame = eventFrame(channel, event, payload);
    for (const connection of this.connections) {
      if (connection.channels.has(channel)) send(connection.socket, frame);
    }
  }

  /** Cuts every connection at once, without a close frame (a network blip); returns how many there were. */
  dropAll(): number {
    const count = this.connections.size;
    for (const connection of this.connections) connection.socket.terminate();
    this.connections.clear();
    return count;
  }

  /** An outage: drops everyone, then cuts each new connection as soon as it opens, for `ms`. */
  block(ms: number): void {
    this.blockedUntilMs = Math.max(this.blockedUntilMs, this.now() + ms);
    this.dropAll();
  }

  clients(): RealtimeClient[] {
    return [...this.connections].map(({ socketId, channels }) => ({ socketId, channels: [...channels] }));
  }

  close(): void {
    this.closed = true;
    this.dropAll();
    this.wss.close();
  }

  private open(socket: WebSocket, appKey: string, protocol: string | null): void {
    // ws reports bad frames (too large, invalid UTF-8) as errors and then closes: never let one escape.
    socket.on('error', () => socket.terminate());
    if (this.closed) return void socket.terminate();
    if (appKey !== this.authority.key) {
      return refuse(socket, ErrorCode.appDoesNotExist, 'Application does not exist');
    }
    if (protocol !== null && protocol !== '7') {
      return refuse(socket, ErrorCode.unsupportedProtocol, 'Unsupported protocol version');
    }
    const connection: Connection = { socketId: newSocketId(), socket, channels: new Set() };
    this.connections.add(connection);
    socket.on('close', () => this.connections.delete(connection));
    socket.on('message', (raw: RawData, isBinary: boolean) => this.receive(connection, raw, isBinary));
    send(socket, connectionEstablished(connection.socketId, ACTIVITY_TIMEOUT_SECONDS));
  }

  private receive(connection: Connection, raw: RawData, isBinary: boolean): void {
    const frame = readClientFrame(raw, isBinary);
    if (frame === undefined) return send(connection.socket, errorFrame(null, 'Invalid message format.'));
    switch (frame.event) {
      case 'pusher:ping':
        return send(connection.socket, pongFrame());
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        return this.subscribe(connection, frame);
      case 'pusher:unsubscribe':
        if (typeof frame.data.channel === 'string') connection.channels.delete(frame.data.channel);
        return;
      default: {
        const message = frame.event.startsWith('client-')
          ? 'Client events are not enabled.'
          : 'Unsupported event.';
        return send(connection.socket, errorFrame(null, message));
      }
    }
  }

  /** Only `private-chat-log.{tenantId}`, only with this socket's signature; every refusal is a 4009. */
  private subscribe(connection: Connection, frame: ClientFrame): void {
    const { channel, auth } = frame.data;
    if (typeof channel !== 'string' || channel === '') {
      return send(connection.socket, errorFrame(null, 'The subscribe message needs a channel.'));
    }
    if (!CHAT_LOG_CHANNEL.test(channel)) {
      const message = `Subscription to this channel is not allowed: only private-chat-log.{tenantId} exists.`;
      return send(connection.socket, errorFrame(ErrorCode.unauthorized, message));
    }
    if (!this.authority.verify(connection.socketId, channel, auth)) {
      return send(connection.socket, errorFrame(ErrorCode.unauthorized, 'Connection is unauthorized'));
    }
    connection.channels.add(channel);
    send(connection.socket, subscriptionSucceeded(channel));
  }
}

function send(socket: WebSocket, frame: string): void {
  if (socket.readyState === WebSocket.OPEN) socket.send(frame);
}

/** Pusher's way: an error frame in the handshake, then a close with the same code; pusher-js will not retry. */
function refuse(socket: WebSocket, code: number, message: string): void {
  send(socket, errorFrame(code, message));
  socket.close(code, message);
}

/** An HTTP answer instead of the 101: no app at that path, or the sandbox is closing. */
function refuseUpgrade(socket: Duplex, status: 404 | 503): void {
  socket.on('error', () => socket.destroy());
  const body = `${STATUS_CODES[status]}\n`;
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Connection: close',
    'Content-Type: text/plain',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...(status === 503 ? ['Retry-After: 1'] : []),
  ];
  socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
}

let socketSequence = 0;

/** `\d+.\d+` like Pusher's; unique within the process. */
function newSocketId(): string {
  socketSequence += 1;
  return `${randomInt(100_000, 1_000_000_000)}.${socketSequence}`;
}
