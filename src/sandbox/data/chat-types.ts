// Records behind the messaging endpoints: channels, conversations and their chat logs (messages).

export const CHANNEL_TYPES = ['whatsapp', 'instagram', 'messenger', 'sms'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export interface ChannelRecord {
  id: number;
  tenant_id: number;
  name: string;
  type: ChannelType;
  is_active: boolean;
  created_at: string;
}

export interface ConversationRecord {
  id: number;
  tenant_id: number;
  customer_id: number | null;
  channel_id: number;
  /** Whether the AI assistant answers in this conversation. */
  agent_enabled: boolean;
  agent_updated_at: string;
  last_message_at: string | null;
  created_at: string;
  updated_at: string;
}

export type SenderType = 'customer' | 'user' | 'assistant';

/**
 * The AI assistant's `sender_id` (sandbox): the document's payload has an integer for every sender. No user or
 * customer record stands behind it; it sits above the seeded users' ids so that it reads as nobody's.
 */
export const ASSISTANT_SENDER_ID = 1000;

export type ChatLogStatus = 'received' | 'sent' | 'queued' | 'read';

/** A message, shaped exactly like the ChatLogCreated payload of the API document. */
export interface ChatLogRecord {
  id: number;
  tenant_id: number;
  conversation_id: number;
  sender_type: SenderType;
  /** The patient (null for a conversation without one), the staff member, or ASSISTANT_SENDER_ID. */
  sender_id: number | null;
  body: string;
  media_type: 'audio' | null;
  status: ChatLogStatus;
  read_at: string | null;
  /** Date-times with a UTC offset (+00:00), as the realtime payload shows them. */
  created_at: string;
  updated_at: string;
}
