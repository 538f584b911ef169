// Messages the sandbox writes by itself (generated patients, the AI assistant, test hooks), stored like any other so
// REST reads and the realtime broadcast both see them.
import {
  ASSISTANT_SENDER_ID,
  type ChatLogRecord,
  type ChatLogStatus,
  type SenderType,
} from './chat-types.js';
import type { SandboxStore } from './store.js';

export interface NewMessage {
  tenantId: number;
  conversationId: number;
  body: string;
  /** Default 'customer': a patient's message arriving from a messaging channel. */
  senderType?: SenderType;
}

/** Fresh messages: a patient's was received, the clinic's (staff or assistant) sent. */
const FRESH_STATUS: Record<SenderType, ChatLogStatus> = {
  customer: 'received',
  user: 'sent',
  assistant: 'sent',
};

/** Creates the message (its ChatLogCreated event goes out) and returns a copy of it. */
export function postMessage(store: SandboxStore, message: NewMessage, nowMs: number): ChatLogRecord {
  const conversation = store.conversation(message.tenantId, message.conversationId);
  if (conversation === undefined) {
    throw new Error(`No conversation ${message.conversationId} in tenant ${message.tenantId}.`);
  }
  const senderType = message.senderType ?? 'customer';
  const log = store.chat.add(
    {
      tenant_id: conversation.tenant_id,
      conversation_id: conversation.id,
      sender_type: senderType,
      sender_id: senderIdOf(store, senderType, conversation.tenant_id, conversation.customer_id),
      body: message.body,
      media_type: null,
      status: FRESH_STATUS[senderType],
      read_at: null,
    },
    nowMs,
  );
  conversation.last_message_at = log.created_at;
  return { ...log };
}

/** The patient of the conversation, the tenant's first admin for staff, the assistant's own id. */
function senderIdOf(store: SandboxStore, type: SenderType, tenantId: number, customerId: number | null) {
  if (type === 'customer') return customerId;
  if (type === 'assistant') return ASSISTANT_SENDER_ID;
  return tenantAdminId(store, tenantId);
}

/** The tenant's first admin, who speaks for the clinic in generated chat (sends, reads, deletes). */
export function tenantAdminId(store: SandboxStore, tenantId: number): number | null {
  return store.memberships.find((m) => m.tenantId === tenantId && m.role === 'admin')?.userId ?? null;
}
