// The erasure requests of every tenant, with the actions on them and the clock that moves live ones along.
import {
  endingForReason,
  enterStatus,
  type ErasureRequestFields,
  isOpenErasure,
  nextStatus,
  pendingErasureRequest,
  VERIFICATION_WINDOW_MS,
} from './erasure-flow.js';
import type { ErasureRequestRecord } from './erasure-types.js';
import { apiTimestamp } from './time.js';
import { highestId } from './ids.js';

export interface ErasureSettings {
  /** Time between two steps of a live request; 0 freezes every request. */
  stepMs: number;
  /** Called when a request completes, to wipe the person's data. */
  onCompleted(record: ErasureRequestRecord, atMs: number): void;
}

/** A request made through the API always names a customer. */
export type NewErasureRequest = ErasureRequestFields & { customer_id: number };

export class ErasureRequests {
  private nextId: number;

  constructor(
    private readonly records: ErasureRequestRecord[],
    private readonly settings: ErasureSettings,
  ) {
    this.nextId = highestId(records) + 1;
  }

  ofTenant(tenantId: number): ErasureRequestRecord[] {
    return this.records.filter((record) => record.tenant_id === tenantId);
  }

  get(tenantId: number, id: number): ErasureRequestRecord | undefined {
    return this.records.find((record) => record.id === id && record.tenant_id === tenantId);
  }

  openFor(tenantId: number, customerId: number): ErasureRequestRecord | undefined {
    return this.ofTenant(tenantId).find(
      (record) => record.customer_id === customerId && isOpenErasure(record.status),
    );
  }

  /** A new request waits for verification and then moves along on the clock. */
  create(fields: NewErasureRequest, nowMs: number): ErasureRequestRecord {
    const record = pendingErasureRequest(this.nextId++, fields, nowMs);
    record.movement = { sinceMs: nowMs, ending: endingForReason(fields.request_reason) };
    this.records.push(record);
    return record;
  }

  /** Applies every step that fell due up to `nowMs`, each at the moment it was due. */
  catchUp(nowMs: number): void {
    const { stepMs } = this.settings;
    if (stepMs <= 0) return;
    for (const record of this.records) {
      let movement = record.movement;
      while (movement !== null && nowMs >= movement.sinceMs + stepMs) {
        const atMs = movement.sinceMs + stepMs;
        const next = nextStatus(record.status, movement.ending);
        if (next === undefined) {
          record.movement = null;
          break;
        }
        enterStatus(record, next, atMs);
        if (next === 'completed') this.settings.onCompleted(record, atMs);
        movement = nextStatus(next, movement.ending) === undefined ? null : { ...movement, sinceMs: atMs };
        record.movement = movement;
      }
    }
  }

  /** Sends the verification link again, which also restarts its validity (and the wait for verification). */
  resend(record: ErasureRequestRecord, nowMs: number): void {
    const expiring = record.movement?.ending === 'expired';
    record.resend_count += 1;
    record.last_sent_at = apiTimestamp(nowMs);
    record.verification_expires_at = apiTimestamp(
      nowMs + (expiring ? this.settings.stepMs : VERIFICATION_WINDOW_MS),
    );
    record.updated_at = record.last_sent_at;
    if (record.movement !== null) record.movement = { ...record.movement, sinceMs: nowMs };
  }

  cancel(record: ErasureRequestRecord, userId: number, reason: string, nowMs: number): void {
    const at = apiTimestamp(nowMs);
    record.status = 'cancelled';
    record.cancelled_at = at;
    record.cancelled_by_user_id = userId;
    record.cancellation_reason = reason;
    record.updated_at = at;
    record.movement = null;
  }

  /** A failed run goes back to processing and, on the clock, completes this time. */
  retry(record: ErasureRequestRecord, nowMs: number): void {
    enterStatus(record, 'processing', nowMs);
    record.movement = { sinceMs: nowMs, ending: 'completed' };
  }
}
