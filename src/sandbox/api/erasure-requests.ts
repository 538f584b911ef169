// Data erasure requests: list, read, create, the resend/cancel/retry actions and the completion certificate.
import { stateAllows } from '../data/erasure-flow.js';
import { scopeSummaryFor, verificationChannelFor } from '../data/erasure-scope.js';
import type { ErasureAction } from '../../core/api/erasure-states.js';
import type { ErasureRequestRecord } from '../data/erasure-types.js';
import type { CustomerRecord } from '../data/types.js';
import { buildPdf } from '../http/pdf.js';
import { ApiError, codedError, type FieldErrors, fileResponse } from '../http/responses.js';
import { listErasureRequests } from './erasure-list.js';
import { erasureView, findErasureRequest } from './erasure-view.js';
import { addFieldError, parsePositiveInteger, throwIfInvalid } from './field-errors.js';
import { isObject } from './json-input.js';
import { ok, type Route, type TenantContext, tenantRoute } from './route.js';

const READ = 'data-erasure-requests.read';
const WRITE = 'data-erasure-requests.write';
const BASE = '/v1/data-erasure-requests';
const MAX_TEXT_LENGTH = 1000;

export const erasureRoutes: Route[] = [
  tenantRoute('GET', BASE, READ, listErasureRequests),
  tenantRoute('POST', BASE, WRITE, createRequest),
  tenantRoute('GET', `${BASE}/{id}`, READ, getRequest),
  tenantRoute('POST', `${BASE}/{id}/resend`, WRITE, resend),
  tenantRoute('POST', `${BASE}/{id}/cancel`, WRITE, cancel),
  tenantRoute('POST', `${BASE}/{id}/retry`, WRITE, retry),
  tenantRoute('GET', `${BASE}/{id}/certificate`, READ, certificate),
];

function getRequest(ctx: TenantContext) {
  return ok(erasureView(ctx, findErasureRequest(ctx)));
}

async function createRequest(ctx: TenantContext) {
  const input = readCreateInput(ctx, await ctx.readJson());
  const { person } = input;
  if (person.is_erased) {
    // 422 like the lead note's CUSTOMER_ERASED: clients must go by the code.
    throw new ApiError(codedError(422, 'CUSTOMER_ERASED', 'This customer has already been erased.'));
  }
  const open = ctx.store.erasures.openFor(ctx.tenant.id, person.id);
  if (open !== undefined) {
    const message = `Customer ${person.id} already has an open erasure request (#${open.id}, ${open.status}).`;
    throw new ApiError(
      codedError(409, 'ERASURE_REQUEST_OPEN', message, {
        data: { request_id: open.id, status: open.status },
      }),
    );
  }
  const record = ctx.store.erasures.create(
    {
      tenant_id: ctx.tenant.id,
      customer_id: person.id,
      requested_by_user_id: ctx.user.id,
      request_reason: input.reason,
      scope_summary: scopeSummaryFor(person, countsOf(ctx, person)),
      verification_channel: verificationChannelFor(person),
    },
    ctx.now(),
  );
  return ok(erasureView(ctx, record), 201);
}

function readCreateInput(
  ctx: TenantContext,
  body: unknown,
): { person: CustomerRecord; reason: string | null } {
  const input = isObject(body) ? body : {};
  const errors: FieldErrors = {};
  const rawId = input.customer_id;
  let person: CustomerRecord | undefined;
  if (rawId === undefined || rawId === null || rawId === '') {
    addFieldError(errors, 'customer_id', 'The customer id field is required.');
  } else {
    const id = typeof rawId === 'string' ? parsePositiveInteger(rawId.trim()) : rawId;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
      addFieldError(errors, 'customer_id', 'The customer id field must be an integer.');
    } else {
      person = ctx.store.person(ctx.tenant.id, id);
      if (person === undefined) addFieldError(errors, 'customer_id', 'The selected customer id is invalid.');
    }
  }
  const reason = optionalText(input.request_reason, 'request_reason', 'request reason', errors);
  throwIfInvalid(errors);
  if (person === undefined) throw new Error('unreachable: a valid customer id names a person');
  return { person, reason };
}

function countsOf(ctx: TenantContext, person: CustomerRecord) {
  const tenantId = ctx.tenant.id;
  return {
    conversations: ctx.store
      .ofTenant(ctx.store.conversations, tenantId)
      .filter((c) => c.customer_id === person.id).length,
    appointments: ctx.store
      .ofTenant(ctx.store.appointments, tenantId)
      .filter((a) => a.customer_id === person.id).length,
  };
}

function resend(ctx: TenantContext) {
  const record = allowedRequest(ctx, 'resend');
  ctx.store.erasures.resend(record, ctx.now());
  return ok(erasureView(ctx, record));
}

async function cancel(ctx: TenantContext) {
  const record = findErasureRequest(ctx);
  const input = await ctx.readJson();
  const errors: FieldErrors = {};
  const given = isObject(input) ? input.cancellation_reason : undefined;
  const reason = optionalText(given, 'cancellation_reason', 'cancellation reason', errors);
  if (reason === null && errors.cancellation_reason === undefined) {
    addFieldError(errors, 'cancellation_reason', 'The cancellation reason field is required.');
  }
  throwIfInvalid(errors);
  ensureAllowed(record, 'cancel');
  ctx.store.erasures.cancel(record, ctx.user.id, reason ?? '', ctx.now());
  return ok(erasureView(ctx, record));
}

function retry(ctx: TenantContext) {
  const record = allowedRequest(ctx, 'retry');
  ctx.store.erasures.retry(record, ctx.now());
  return ok(erasureView(ctx, record));
}

function certificate(ctx: TenantContext) {
  const record = allowedRequest(ctx, 'certificate');
  const code = record.certificate_code ?? `DER-${record.id}`;
  const pdf = buildPdf(`Data erasure certificate ${code}`, [
    `Clinic: ${ctx.tenant.name}`,
    `Request: #${record.id}, customer ${record.customer_id ?? 'unknown'}`,
    `Completed: ${record.executed_at ?? 'unknown'}`,
    ...record.scope_summary.map((item) => `Erased: ${item.description} (${item.records})`),
    'Issued by the clinic sandbox: sample certificate only.',
  ]);
  return fileResponse(pdf, 'application/pdf', `erasure-certificate-${code}.pdf`);
}

function allowedRequest(ctx: TenantContext, action: ErasureAction): ErasureRequestRecord {
  const record = findErasureRequest(ctx);
  ensureAllowed(record, action);
  return record;
}

/** The same rule `state_allows` shows; anything else is a 409 that changes nothing. */
function ensureAllowed(record: ErasureRequestRecord, action: ErasureAction): void {
  if (stateAllows(record.status)[action]) return;
  const message = `${action} is not allowed while the request is ${record.status.replace('_', ' ')}.`;
  throw new ApiError(
    codedError(409, 'INVALID_STATE', message, {
      data: { status: record.status, action, state_allows: stateAllows(record.status) },
    }),
  );
}

/** An optional string, trimmed; empty counts as absent (null). */
function optionalText(value: unknown, field: string, label: string, errors: FieldErrors): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    addFieldError(errors, field, `The ${label} field must be a string.`);
    return null;
  }
  const text = value.trim();
  if (text.length > MAX_TEXT_LENGTH) {
    addFieldError(
      errors,
      field,
      `The ${label} field must not be greater than ${MAX_TEXT_LENGTH} characters.`,
    );
  }
  return text === '' ? null : text;
}
