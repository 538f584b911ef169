// What identifies and authenticates a forwarded event: its Clinic-Event-Id, made from what the event is (so the same
// on every retry and after a restart), and its Clinic-Signature, an HMAC-SHA256 of "<t>.<body>" with the secret.
import { createHmac } from 'node:crypto';
import { conversationOf, eventRecord, shortName, type TailEvent } from './events.js';

/**
 * `ChatLogCreated.<tenant>.<conversation>.<message>`, `ChatLogDeleted.<tenant>.<conversation>.<message>`, or
 * `ConversationRead.<tenant>.<conversation>.<last message delivered before it>`: a read event carries no id of its
 * own, and two reads with no message between them say the same thing.
 */
export function eventId(event: TailEvent, tenant: string, lastMessageId?: number): string {
  const { data } = event;
  const subject =
    event.kind === 'created' ? data.id : event.kind === 'deleted' ? data.chatLogId : (lastMessageId ?? 0);
  return [shortName(event.kind), tenant, idText(conversationOf(event)), idText(subject)].join('.');
}

/** Conversations whose last forwarded message is remembered (as many as the checkpoint and the de-duplication keep). */
export const MAX_READ_POINTS = 10_000;

/**
 * Each conversation's last message forwarded, which a read event's id says it was read up to; the least recently
 * forwarded forgotten first, so a server sending messages of ever new conversations cannot grow it without bound.
 */
export class ReadPoints {
  private readonly last = new Map<number, number>();

  constructor(
    start: Iterable<[number, number]> = [],
    private readonly limit = MAX_READ_POINTS,
  ) {
    for (const [conversation, id] of start) this.forwarded(conversation, id);
  }

  get(conversation: number): number | undefined {
    return this.last.get(conversation);
  }

  get size(): number {
    return this.last.size;
  }

  /** A message of `conversation` forwarded: it becomes the most recently forwarded. */
  forwarded(conversation: number, messageId: number): void {
    const last = this.last.get(conversation);
    this.last.delete(conversation);
    this.last.set(conversation, Math.max(last ?? messageId, messageId));
    if (this.last.size > this.limit) this.last.delete(this.last.keys().next().value as number);
  }
}

/** An id as it may stand in a header: digits as they are, anything else (a hostile payload) made harmless. */
function idText(value: unknown): string {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? String(value) : 'unknown';
}

/** The body POSTed: the event's NDJSON object, as its line would print it. */
export const eventBody = (event: TailEvent): string => JSON.stringify(eventRecord(event));

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, as Stripe signs its webhooks. */
export function signature(secret: string, unixSeconds: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}
