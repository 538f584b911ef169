// Records behind the data erasure endpoints: statuses, the stored request and how a live one moves on.

export const ERASURE_STATUSES = [
  'pending_verification',
  'verified',
  'processing',
  'completed',
  'expired',
  'cancelled',
  'failed',
] as const;
export type ErasureStatus = (typeof ERASURE_STATUSES)[number];

export const ERASURE_ACTIONS = ['resend', 'cancel', 'retry', 'certificate'] as const;
export type ErasureAction = (typeof ERASURE_ACTIONS)[number];

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
