// Seeded messaging: four channels and three conversations per tenant, six messages each on one global sequence.
import { pick, type Random } from '../random.js';
import {
  ASSISTANT_SENDER_ID,
  CHANNEL_TYPES,
  type ChannelRecord,
  type ChatLogRecord,
  type ConversationRecord,
  type SenderType,
} from './chat-types.js';
import { blockIds, messageIdsOf } from './fixtures.js';
import { apiTimestamp, minutesAfterEpoch, offsetTimestamp } from './time.js';
import type { CustomerRecord, MembershipRecord } from './types.js';

const CHANNEL_NAMES = ['WhatsApp Business', 'Instagram', 'Facebook Messenger', 'SMS'] as const;

export const PATIENT_LINES = [
  'Hi, can I move my appointment to Friday?',
  'Is the clinic open on Saturday mornings?',
  'Thanks! See you then 😊',
  'My tooth still hurts a bit after the filling.\nIs that normal?',
  'Do you take payment by card, or cash only?',
  'Could you send me the aftercare instructions again, please?',
] as const;

export const ASSISTANT_LINES = [
  'Hello! I can help with bookings. Which day and time suit you best?',
  'We are open Saturdays from 9:00 to 13:00.',
  'Some sensitivity for a few days is common. If it lasts longer, we will book a check-up.',
  'We accept cards, cash and bank transfer.',
] as const;

const STAFF_LINES = [
  'Done, you are booked in for Friday at 10:30.',
  'I have emailed the instructions to you just now.',
  'Dr. Walsh will call you this afternoon.',
  'You are welcome, have a good day!',
] as const;

/** Who speaks in each of a conversation's six messages. */
const SCRIPT: readonly SenderType[] = ['customer', 'assistant', 'customer', 'user', 'customer', 'user'];

export interface SeededChat {
  channels: ChannelRecord[];
  conversations: ConversationRecord[];
  chatLogs: ChatLogRecord[];
}

export function seedChat(
  random: Random,
  tenantIds: readonly number[],
  patientsOf: (tenantId: number) => CustomerRecord[],
  memberships: readonly MembershipRecord[],
): SeededChat {
  const seeded: SeededChat = { channels: [], conversations: [], chatLogs: [] };
  for (const tenantId of tenantIds) {
    const channelIds = blockIds('channels', tenantId);
    channelIds.forEach((id, index) => {
      seeded.channels.push({
        id,
        tenant_id: tenantId,
        name: CHANNEL_NAMES[index] ?? 'Channel',
        type: CHANNEL_TYPES[index] ?? 'sms',
        is_active: index < 3,
        created_at: apiTimestamp(minutesAfterEpoch(-200 * 24 * 60 + id * 60)),
      });
    });
    const patients = patientsOf(tenantId).filter((patient) => !patient.is_erased && patient.lead_id === null);
    const staffId = staffMemberOf(tenantId, memberships);
    blockIds('conversations', tenantId).forEach((id, index) => {
      const startMs = minutesAfterEpoch(id * 24 * 60);
      const customerId = patients[index]?.id ?? null;
      const senderIds = { customer: customerId, user: staffId, assistant: ASSISTANT_SENDER_ID };
      const logs = messageIdsOf(id).map((logId, position) => {
        const sender = SCRIPT[position] ?? 'customer';
        const atMs = startMs + position * 7 * 60_000;
        const isLast = position >= SCRIPT.length - 2;
        const voice = index === 1 && position === 4;
        const at = offsetTimestamp(atMs);
        return {
          id: logId,
          tenant_id: tenantId,
          conversation_id: id,
          sender_type: sender,
          sender_id: senderIds[sender],
          body: voice ? 'Voice message (0:12)' : pick(random, linesFor(sender)),
          media_type: voice ? ('audio' as const) : null,
          status: isLast ? latestStatus(sender) : ('read' as const),
          // All but the last exchange was read; status 'read' always comes with read_at.
          read_at: isLast ? null : offsetTimestamp(atMs + 60_000),
          created_at: at,
          updated_at: at,
        };
      });
      for (const log of logs) seeded.chatLogs.push(log);
      const lastAt = logs.at(-1)?.created_at ?? null;
      seeded.conversations.push({
        id,
        tenant_id: tenantId,
        customer_id: customerId,
        channel_id: channelIds[index] ?? channelIds[0] ?? 0,
        agent_enabled: index === 0,
        agent_updated_at: apiTimestamp(startMs),
        last_message_at: lastAt,
        created_at: apiTimestamp(startMs),
        updated_at: apiTimestamp(startMs + 35 * 60_000),
      });
    });
  }
  return seeded;
}

/** Not read yet: the patient's message was received, the clinic's sent. */
function latestStatus(sender: SenderType): ChatLogRecord['status'] {
  return sender === 'customer' ? 'received' : 'sent';
}

function linesFor(sender: SenderType): readonly string[] {
  if (sender === 'customer') return PATIENT_LINES;
  return sender === 'assistant' ? ASSISTANT_LINES : STAFF_LINES;
}

/** Who answers patients: a staff member or salesperson if the tenant has one, else its admin. */
function staffMemberOf(tenantId: number, memberships: readonly MembershipRecord[]): number | null {
  const members = memberships.filter((m) => m.tenantId === tenantId);
  const answering = members.find((m) => m.role === 'staff' || m.role === 'salesperson');
  return (answering ?? members.find((m) => m.role === 'admin'))?.userId ?? null;
}
