// Serializes a data erasure request exactly as the API document's DataErasureRequest, for one viewer.
import { stateAllows } from '../data/erasure-flow.js';
import type { ErasureRequestRecord } from '../data/erasure-types.js';
import { resourceNotFound } from '../http/responses.js';
import { recordInPath } from './path-record.js';
import { relatedCustomer, relatedUser, viewerOf } from './related.js';
import type { TenantContext } from './route.js';

/** The relations are "required in response: no": one that is not there is left out, never sent as null. */
export function erasureView(ctx: TenantContext, record: ErasureRequestRecord) {
  const person =
    record.customer_id === null ? undefined : ctx.store.person(ctx.tenant.id, record.customer_id);
  const user = (id: number | null) => {
    const found = id === null ? undefined : ctx.store.user(id);
    return found === undefined ? undefined : relatedUser(found);
  };
  const customer = person === undefined ? undefined : relatedCustomer(person, viewerOf(ctx));
  const requestedBy = user(record.requested_by_user_id);
  const cancelledBy = user(record.cancelled_by_user_id);
  return {
    id: record.id,
    tenant_id: record.tenant_id,
    customer_id: record.customer_id,
    ...(customer === undefined ? {} : { customer }),
    ...(requestedBy === undefined ? {} : { requested_by: requestedBy }),
    ...(cancelledBy === undefined ? {} : { cancelled_by: cancelledBy }),
    status: record.status,
    request_reason: record.request_reason,
    scope_summary: structuredClone(record.scope_summary),
    verification_channel: record.verification_channel,
    verification_expires_at: record.verification_expires_at,
    resend_count: record.resend_count,
    last_sent_at: record.last_sent_at,
    verified_at: record.verified_at,
    executed_at: record.executed_at,
    execution_report: structuredClone(record.execution_report),
    certificate_code: record.certificate_code,
    cancelled_at: record.cancelled_at,
    cancellation_reason: record.cancellation_reason,
    state_allows: stateAllows(record.status),
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/** The request in the path, or a coded 404 (another tenant's request included). */
export function findErasureRequest(ctx: TenantContext): ErasureRequestRecord {
  return recordInPath(
    ctx,
    (id) => ctx.store.erasures.get(ctx.tenant.id, id),
    resourceNotFound('Data erasure request not found.'),
  );
}
