// Conversation messages (list with `after`, read one) and the AI assistant switch of a conversation.
import type { ConversationRecord } from '../data/chat-types.js';
import { apiTimestamp } from '../data/time.js';
import { ApiError, type FieldErrors, legacyError } from '../http/responses.js';
import { parsePositiveInteger, throwIfInvalid } from './field-errors.js';
import { paginate, readPageRequest } from './pagination.js';
import { readWholeNumber } from './query-filters.js';
import { ok, type Route, type TenantContext } from './route.js';

const read = { tenantScoped: true, scope: 'conversations:read', ability: 'conversations.read' } as const;
const write = { tenantScoped: true, scope: 'conversations:write', ability: 'conversations.write' } as const;

export const conversationRoutes: Route[] = [
  { method: 'GET', pattern: '/v1/conversations/{id}/messages', ...read, handle: listMessages },
  { method: 'GET', pattern: '/v1/conversations/{id}/messages/{messageId}', ...read, handle: getMessage },
  { method: 'GET', pattern: '/v1/conversations/{id}/agent', ...read, handle: getAgent },
  { method: 'POST', pattern: '/v1/conversations/{id}/agent/enable', ...write, handle: enableAgent },
  { method: 'POST', pattern: '/v1/conversations/{id}/agent/disable', ...write, handle: disableAgent },
];

/** The conversation in the path, or the legacy 404 the API shows for it. */
export function findConversation(ctx: TenantContext): ConversationRecord {
  const id = parsePositiveInteger(ctx.params.id ?? '');
  const conversation = id === undefined ? undefined : ctx.store.conversation(ctx.tenant.id, id);
  if (conversation === undefined) throw new ApiError(legacyError(404, 'Conversation not found.'));
  return conversation;
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
  const id = parsePositiveInteger(ctx.params.messageId ?? '');
  const message = id === undefined ? undefined : ctx.store.chat.get(conversation.id, id);
  if (message === undefined) throw new ApiError(legacyError(404, 'Message not found.'));
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
