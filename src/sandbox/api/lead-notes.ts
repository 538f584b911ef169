// POST /v1/leads/{id}/notes: a note on a lead, refused on an erased person's lead and on another rep's lead.
import type { LeadNoteRecord, LeadRecord } from '../data/types.js';
import { apiTimestamp } from '../data/time.js';
import { ApiError, codedError, type FieldErrors, plainError, resourceNotFound } from '../http/responses.js';
import { addFieldError, parsePositiveInteger, throwIfInvalid } from './field-errors.js';
import { isObject } from './json-input.js';
import { tenantRecordInPath } from './path-record.js';
import { relatedUserWithAvatar } from './related.js';
import { ok, type Route, type TenantContext, tenantRoute } from './route.js';

export const leadNoteRoutes: Route[] = [
  tenantRoute('POST', '/v1/leads/{id}/notes', 'leads.write', addLeadNote),
];

const MAX_CONTENT_LENGTH = 10_000;

async function addLeadNote(ctx: TenantContext) {
  const lead = tenantRecordInPath(ctx, ctx.store.leads, resourceNotFound('Lead not found.'));
  const body = await ctx.readJson();
  if (isErased(ctx, lead)) {
    // 422 on purpose: the API does not show this status, so clients must go by the code.
    throw new ApiError(
      codedError(422, 'CUSTOMER_ERASED', "This lead's customer was erased; the lead is read-only."),
    );
  }
  if (ctx.role === 'salesperson' && lead.assigned_user_id !== null && lead.assigned_user_id !== ctx.user.id) {
    // The document answers 403 in the plain shape only; LEAD_NOT_ASSIGNED is a record_state reason, never an error code.
    throw new ApiError(plainError(403, 'This lead is assigned to another salesperson.'));
  }
  const input = readNoteInput(ctx, body);
  const at = apiTimestamp(ctx.now());
  const note = ctx.store.addLeadNote({
    tenant_id: ctx.tenant.id,
    lead_id: lead.id,
    content: input.content,
    user_id: input.userId,
    origin: 'panel',
    created_at: at,
    updated_at: at,
    deleted_at: null,
  });
  return ok(noteView(ctx, note), 201);
}

function isErased(ctx: TenantContext, lead: LeadRecord): boolean {
  if (lead.customer_id === null) return false;
  return ctx.store.person(ctx.tenant.id, lead.customer_id)?.is_erased === true;
}

function readNoteInput(ctx: TenantContext, body: unknown): { content: string; userId: number } {
  const input = isObject(body) ? body : {};
  const errors: FieldErrors = {};
  const content = typeof input.content === 'string' ? input.content.trim() : input.content;
  if (content === undefined || content === null || content === '') {
    addFieldError(errors, 'content', 'The content field is required.');
  } else if (typeof content !== 'string') {
    addFieldError(errors, 'content', 'The content field must be a string.');
  } else if (content.length > MAX_CONTENT_LENGTH) {
    addFieldError(
      errors,
      'content',
      `The content field must not be greater than ${MAX_CONTENT_LENGTH} characters.`,
    );
  }
  let userId = ctx.user.id;
  if (input.user_id !== undefined && input.user_id !== null) {
    const given = typeof input.user_id === 'string' ? parsePositiveInteger(input.user_id) : input.user_id;
    if (typeof given !== 'number' || !Number.isSafeInteger(given)) {
      addFieldError(errors, 'user_id', 'The user id field must be an integer.');
    } else if (ctx.store.roleOf(given, ctx.tenant.id) === undefined) {
      addFieldError(errors, 'user_id', 'The selected user id is invalid.');
    } else {
      userId = given;
    }
  }
  throwIfInvalid(errors);
  return { content: content as string, userId };
}

function noteView(ctx: TenantContext, note: LeadNoteRecord) {
  const author = ctx.store.user(note.user_id);
  return {
    id: note.id,
    // The note was just written, so the caller may write to it.
    record_state: { is_read_only: false, reason_code: null },
    content: note.content,
    user_id: note.user_id,
    origin: note.origin,
    source_lead_id: note.lead_id,
    created_at: note.created_at,
    updated_at: note.updated_at,
    deleted_at: note.deleted_at,
    author: author === undefined ? null : relatedUserWithAvatar(author),
  };
}
