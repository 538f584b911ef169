// Records behind the data erasure endpoints: the stored request and how a live one moves on (the statuses and
// actions are the API's own, shared with the CLI).
import type { ErasureStatus } from '../../core/api/erasure-states.js';

/** One kind of data the erasure covers (the API leaves the element shape open: the sandbox's choice). */
export interface ScopeSummaryItem {
  resource: string;
  description: string;
  records: number;
}

/** One step of an erasure run (the sandbox's choice of shape). */
export interface ExecutionReportItem {
  resource: string;
  status: 'erased' | 'failed' | 'skipped';
  records: number;
  message: string | null;
  finished_at: string;
}

/** How a live request moves along its path on the sandbox clock; absent on frozen fixtures. */
export interface ErasureMovement {
  /** When the current status was reached: the next step is due one step later. */
  sinceMs: number;
  /** Where the run ends: completed, failed part way, or expired before anyone verified it. */
  ending: 'completed' | 'failed' | 'expired';
}

export interface ErasureRequestRecord {
  id: number;
  tenant_id: number;
  customer_id: number | null;
  requested_by_user_id: number;
  cancelled_by_user_id: number | null;
  status: ErasureStatus;
  request_reason: string | null;
  scope_summary: ScopeSummaryItem[];
  verification_channel: 'email' | 'sms' | null;
  verification_expires_at: string | null;
  resend_count: number;
  last_sent_at: string | null;
  verified_at: string | null;
  executed_at: string | null;
  execution_report: ExecutionReportItem[] | null;
  certificate_code: string | null;
  cancelled_at: string | null;
  cancellation_reason: string | null;
  created_at: string;
  updated_at: string;
  movement: ErasureMovement | null;
}
