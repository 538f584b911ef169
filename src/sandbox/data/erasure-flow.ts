// The erasure request's state machine: what each status allows, and what one step along the path changes.
import type { ErasureAction, ErasureStatus } from '../../core/api/erasure-states.js';
import type { ErasureMovement, ErasureRequestRecord, ExecutionReportItem } from './erasure-types.js';
import { apiTimestamp } from './time.js';

/** Statuses that still lead somewhere; a customer with one of these cannot get a second request. */
export const OPEN_ERASURE_STATUSES: readonly ErasureStatus[] = [
  'pending_verification',
  'verified',
  'processing',
];

/** How long the emailed or texted verification link stays valid. */
export const VERIFICATION_WINDOW_MS = 48 * 60 * 60 * 1000;

/** What the one who asks for an erasure says: whose data, why, what it covers and where the link goes. */
export type ErasureRequestFields = Pick<
  ErasureRequestRecord,
  | 'tenant_id'
  | 'customer_id'
  | 'requested_by_user_id'
  | 'request_reason'
  | 'scope_summary'
  | 'verification_channel'
>;

/** A request as it is made: the verification link just sent, nothing else done yet, and not moving on its own. */
export function pendingErasureRequest(
  id: number,
  fields: ErasureRequestFields,
  createdMs: number,
): ErasureRequestRecord {
  const at = apiTimestamp(createdMs);
  return {
    id,
    ...fields,
    cancelled_by_user_id: null,
    status: 'pending_verification',
    verification_expires_at: apiTimestamp(createdMs + VERIFICATION_WINDOW_MS),
    resend_count: 0,
    last_sent_at: at,
    verified_at: null,
    executed_at: null,
    execution_report: null,
    certificate_code: null,
    cancelled_at: null,
    cancellation_reason: null,
    created_at: at,
    updated_at: at,
    movement: null,
  };
}

export function stateAllows(status: ErasureStatus): Record<ErasureAction, boolean> {
  return {
    resend: status === 'pending_verification',
    cancel: status === 'pending_verification' || status === 'verified',
    retry: status === 'failed',
    certificate: status === 'completed',
  };
}

export const isOpenErasure = (status: ErasureStatus) => OPEN_ERASURE_STATUSES.includes(status);

/** Sandbox convention: a request whose reason mentions "fail" fails part way; every other one completes. */
export function endingForReason(reason: string | null): ErasureMovement['ending'] {
  return reason !== null && /fail/i.test(reason) ? 'failed' : 'completed';
}

/** The status after one step, or undefined when the request has nowhere further to go. */
export function nextStatus(
  status: ErasureStatus,
  ending: ErasureMovement['ending'],
): ErasureStatus | undefined {
  switch (status) {
    case 'pending_verification':
      return ending === 'expired' ? 'expired' : 'verified';
    case 'verified':
      return 'processing';
    case 'processing':
      return ending === 'failed' ? 'failed' : 'completed';
    default:
      return undefined;
  }
}

/** Moves the record into `status` at `atMs`, filling the fields that status carries. */
export function enterStatus(record: ErasureRequestRecord, status: ErasureStatus, atMs: number): void {
  const at = apiTimestamp(atMs);
  record.status = status;
  record.updated_at = at;
  if (status === 'verified') record.verified_at = at;
  if (status === 'processing') {
    record.executed_at = null;
    record.execution_report = null;
  }
  if (status === 'completed' || status === 'failed') {
    record.executed_at = at;
    record.execution_report = executionReport(record, status === 'failed', at);
  }
  if (status === 'completed') record.certificate_code = certificateCode(record.id, atMs);
}

export function certificateCode(id: number, atMs: number): string {
  return `DER-${new Date(atMs).getUTCFullYear()}-${String(id).padStart(6, '0')}`;
}

/** One line per scope item; a failed run stops at its last item, leaving a person to review it. */
function executionReport(record: ErasureRequestRecord, failed: boolean, at: string): ExecutionReportItem[] {
  const items = record.scope_summary;
  return items.map((item, index) => {
    const failedHere = failed && index === items.length - 1;
    return {
      resource: item.resource,
      status: failedHere ? 'failed' : 'erased',
      records: failedHere ? 0 : item.records,
      message: failedHere ? 'The document store did not confirm the deletion; review before retrying.' : null,
      finished_at: at,
    };
  });
}
