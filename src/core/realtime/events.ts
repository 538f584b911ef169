// The chat events of the API (raw names, as a raw Pusher client binds them) and the shapes the CLI relies on.

export const CHAT_EVENTS = {
  created: 'App\\Events\\ChatLogCreated',
  deleted: 'App\\Events\\ChatLogDeleted',
  read: 'App\\Events\\ConversationRead',
} as const;

export type ChatEventKind = keyof typeof CHAT_EVENTS;
export const CHAT_EVENT_KINDS = Object.keys(CHAT_EVENTS) as ChatEventKind[];

/** The short name printed in NDJSON: `ChatLogCreated`, … */
export const shortName = (kind: ChatEventKind) => CHAT_EVENTS[kind].slice('App\\Events\\'.length);

/** A chat log (message) as the event and the REST list carry it; unknown fields are kept. */
export interface ChatLog {
  id: number;
  conversation_id: number;
  [field: string]: unknown;
}

export interface TailEvent {
  kind: ChatEventKind;
  source: 'realtime' | 'rest';
  data: Record<string, unknown>;
  /** From REST because `--since` asked for what came before the tail (not a gap fill). */
  history?: boolean;
}

/** The conversation an event belongs to, whatever its payload's spelling. */
export function conversationOf(event: TailEvent): number | undefined {
  const { data } = event;
  const value = data.conversation_id ?? data.conversationId;
  return typeof value === 'number' ? value : undefined;
}

export function isChatLog(value: unknown): value is ChatLog {
  const log = value as ChatLog | null;
  return (
    typeof log === 'object' &&
    log !== null &&
    Number.isSafeInteger(log.id) &&
    Number.isSafeInteger(log.conversation_id)
  );
}

/** The object an event is written as: an NDJSON line, and the body POSTed by --forward-to. */
export const eventRecord = (event: TailEvent) => ({
  event: shortName(event.kind),
  source: event.source,
  data: event.data,
});
