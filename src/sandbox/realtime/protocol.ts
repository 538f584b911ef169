// Pusher protocol v7 frames: reading what clients send, writing what the server sends, and the names it accepts.
import type { RawData } from 'ws';

/** The one channel family the API publishes on: `private-chat-log.{tenantId}`. */
export const CHAT_LOG_CHANNEL = /^private-chat-log\.([1-9]\d*)$/;
/** Pusher's socket id shape, as pusher-php-server checks it. */
export const SOCKET_ID = /^\d+\.\d+$/;

export const chatLogChannel = (tenantId: number) => `private-chat-log.${tenantId}`;

/** The tenant id of a chat-log channel name, or undefined for any other name. */
export function tenantOfChannel(channel: string): number | undefined {
  const match = CHAT_LOG_CHANNEL.exec(channel);
  const id = match === null ? Number.NaN : Number(match[1]);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** Close and error codes (Pusher's table; 4009 is what Laravel Reverb sends for a bad subscription). */
export const ErrorCode = {
  appDoesNotExist: 4001,
  unsupportedProtocol: 4007,
  unauthorized: 4009,
} as const;

export interface ClientFrame {
  event: string;
  /** Client frames carry object data; anything else is read as an empty object. */
  data: Record<string, unknown>;
}

/** A text frame holding a JSON object with a string `event`; undefined for anything else. */
export function readClientFrame(raw: RawData, isBinary: boolean): ClientFrame | undefined {
  if (isBinary) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawText(raw));
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || typeof parsed.event !== 'string') return undefined;
  return { event: parsed.event, data: isObject(parsed.data) ? parsed.data : {} };
}

function rawText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return Buffer.from(raw as ArrayBuffer).toString('utf8');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `data` is a JSON string here: pusher-js parses it and insists on activity_timeout. */
export function connectionEstablished(socketId: string, activityTimeoutSeconds: number): string {
  const data = JSON.stringify({ socket_id: socketId, activity_timeout: activityTimeoutSeconds });
  return JSON.stringify({ event: 'pusher:connection_established', data });
}

/** Errors carry object data, as Pusher and the reference client expect. */
export function errorFrame(code: number | null, message: string): string {
  return JSON.stringify({ event: 'pusher:error', data: { code, message } });
}

export const pongFrame = () => JSON.stringify({ event: 'pusher:pong', data: {} });

export const subscriptionSucceeded = (channel: string) =>
  JSON.stringify({ event: 'pusher_internal:subscription_succeeded', channel, data: '{}' });

/** A broadcast event: the payload travels as a JSON string, like Laravel's broadcaster sends it. */
export const eventFrame = (channel: string, event: string, payload: unknown) =>
  JSON.stringify({ event, channel, data: JSON.stringify(payload) });
