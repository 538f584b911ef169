// The data erasure request's statuses, actions and sort fields as the API names them: plain data, imported by the
// CLI and by the sandbox alike (so it imports nothing).

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

export const ERASURE_SORT_FIELDS = ['created_at', 'verified_at', 'executed_at', 'status'] as const;

/** What `state_allows` gates. */
export const ERASURE_ACTIONS = ['resend', 'cancel', 'retry', 'certificate'] as const;
export type ErasureAction = (typeof ERASURE_ACTIONS)[number];
