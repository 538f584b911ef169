// Conversation messages (list with `after`, read one) and the AI assistant switch of a conversation.
import type { ConversationRecord } from '../data/chat-types.js';
import { apiTimestamp } from '../data/time.js';
import { type FieldErrors, legacyError } from '../http/responses.js';
import { throwIfInvalid } from './field-errors.js';
import { paginate, readPageRequest } from './pagination.js';
import { recordInPath, tenantRecordInPath } from './path-record.js';
import { readWholeNumber } from './query-filters.js';
import { ok, type Route, type TenantContext, tenantRoute } from './route.js';

export const conversationRoutes: Route[] = [
  tenantRoute('GET', '/v1/conversations/{id}/messages', 'conversations.read', listMessages),
  tenantRoute('GET', '/v1/conversations/{id}/messages/{messageId}', 'conversations.read', getMessage),
  tenantRoute('GET', '/v1/conversations/{id}/agent', 'conversations.read', getAgent),
  tenantRoute('POST', '/v1/conversations/{id}/agent/enable', 'conversations.write', enableAgent),
  tenantRoute('POST', '/v1/conversations/{id}/agent/disable', 'conversations.write', disableAgent),
];

/** The conversation in the path, or the legacy 404 the API shows for it. */
export function findConversation(ctx: TenantContext): ConversationRecord {
  return tenantRecordInPath(ctx, ctx.store.conversations, legacyError(404, 'Conversation not found.'));
}

/** Oldest first, so `after=<last seen id>` catches up in order. */
function listMessages(ctx: TenantContext) {
  const conversation = findConversation(ctx);
  const errors: FieldErrors = {};
  const pageRequest = readPageRequest(ctx.query, errors);
  const after = readWholeNumber(ctx.query, 'after', errors);
  throwIfInvalid(errors);
  const messages = ctx.store.chat.ofConversation(conversation.id, after ?? 0).map((log) => ({ ...log }));
  const path = ctx.apiUrl(`/v1/conversations/${conversation.id}/messages`);
  return { status: 200, body: paginate(messages, pageRequest, path) };
}

function getMessage(ctx: TenantContext) {
  const conversation = findConversation(ctx);
  const message = recordInPath(
    ctx,
    (id) => ctx.store.chat.get(conversation.id, id),
    legacyError(404, 'Message not found.'),
    'messageId',
  );
  return ok({ ...message });
}

function getAgent(ctx: TenantContext) {
  return ok(agentState(findConversation(ctx)));
}

function enableAgent(ctx: TenantContext) {
  return switchAgent(ctx, true);
}

function disableAgent(ctx: TenantContext) {
  return switchAgent(ctx, false);
}

/** Idempotent: switching to the current state changes nothing, not even updated_at. */
function switchAgent(ctx: TenantContext, enabled: boolean) {
  const conversation = findConversation(ctx);
  if (conversation.agent_enabled !== enabled) {
    conversation.agent_enabled = enabled;
    conversation.agent_updated_at = apiTimestamp(ctx.now());
  }
  return ok(agentState(conversation));
}

function agentState(conversation: ConversationRecord) {
  return {
    conversation_id: conversation.id,
    enabled: conversation.agent_enabled,
    updated_at: conversation.agent_updated_at,
  };
}
