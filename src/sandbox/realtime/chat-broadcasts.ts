// The API's three chat events as Laravel broadcasts them: one store change → one event on the tenant's channel.
import type { ChatEvent } from '../data/chat-logs.js';
import type { SandboxStore } from '../data/store.js';
import { chatLogChannel } from './protocol.js';

export const CHAT_EVENT_NAMES = {
  created: 'App\\Events\\ChatLogCreated',
  deleted: 'App\\Events\\ChatLogDeleted',
  read: 'App\\Events\\ConversationRead',
} as const;

export interface Broadcast {
  channel: string;
  event: string;
  payload: unknown;
}

/** The payloads of the API document: the chat log's own fields, or the two small ones. */
export function broadcastOf(event: ChatEvent): Broadcast {
  const channel = chatLogChannel(event.tenantId);
  switch (event.type) {
    case 'created':
      return { channel, event: CHAT_EVENT_NAMES.created, payload: { ...event.log } };
    case 'deleted': {
      const { chatLogId, conversationId, deletedByUserName } = event;
      return {
        channel,
        event: CHAT_EVENT_NAMES.deleted,
        payload: { chatLogId, conversationId, deletedByUserName },
      };
    }
    case 'read':
      return { channel, event: CHAT_EVENT_NAMES.read, payload: { conversation_id: event.conversation_id } };
  }
}

/** Publishes every chat change of the store; returns the function that stops it. */
export function broadcastChatEvents(
  store: SandboxStore,
  publish: (broadcast: Broadcast) => void,
): () => void {
  return store.onChatEvent((event) => publish(broadcastOf(event)));
}
