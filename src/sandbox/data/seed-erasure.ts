// Seeded erasure requests per tenant: one frozen request in each status (a stable test matrix), then three live
// ones that move on the sandbox clock from the moment it starts.
import { enterStatus, type ErasureRequestFields, pendingErasureRequest } from './erasure-flow.js';
import { scopeSummaryFor, verificationChannelFor } from './erasure-scope.js';
import type { ErasureStatus } from '../../core/api/erasure-states.js';
import type { ErasureMovement, ErasureRequestRecord } from './erasure-types.js';
import { erasureFixtureIds, type LeadFixtures } from './fixtures.js';
import { apiTimestamp, minutesAfterEpoch } from './time.js';
import type { CustomerRecord } from './types.js';

const HOUR_MS = 3_600_000;
const REQUESTER_USER_ID = 1;

const REASONS = [
  'Patient asked by email to delete all personal data.',
  'Right to erasure request received at the front desk.',
  'Lead asked us to forget them after an enquiry.',
  null,
] as const;

export interface ErasureSeedInput {
  tenantId: number;
  /** Every person of the tenant, patients and lead-stage alike. */
  people: readonly CustomerRecord[];
  leadFixtures: LeadFixtures;
  countsOf(person: CustomerRecord): { conversations: number; appointments: number };
  /** When the sandbox starts: live requests are anchored here. */
  startMs: number;
  stepMs: number;
}

export function seedErasureRequests(input: ErasureSeedInput): ErasureRequestRecord[] {
  const { tenantId, people, leadFixtures } = input;
  const fixtureLeadIds = new Set(Object.values(leadFixtures));
  const personOfLead = (leadId: number) => people.find((p) => p.lead_id === leadId && p.is_lead_stage);
  const openLeadPeople = people.filter(
    (p) => p.is_lead_stage && !p.is_erased && p.lead_id !== null && !fixtureLeadIds.has(p.lead_id),
  );
  const leadPatients = people.filter((p) => !p.is_lead_stage && !p.is_erased && p.lead_id !== null);
  // Plain patients from the end of the list, so the low ids stay free for tests that create requests.
  const plain = people.filter((p) => !p.is_lead_stage && !p.is_erased && p.lead_id === null).reverse();
  const { byStatus, moving } = erasureFixtureIds(tenantId);

  const frozen: [ErasureStatus, CustomerRecord | undefined][] = [
    ['pending_verification', leadPatients[0]],
    ['verified', openLeadPeople[0]],
    ['processing', plain[0]],
    ['completed', personOfLead(leadFixtures.customerErased)],
    ['expired', plain[1]],
    ['cancelled', plain[2]],
    ['failed', plain[3]],
  ];
  const records = frozen.map(([status, person], index) =>
    frozenRequest(input, byStatus[status], status, person, minutesAfterEpoch((index * 3 - 40) * 24 * 60)),
  );
  const live: [number, CustomerRecord | undefined, ErasureMovement['ending']][] = [
    [moving.completes, openLeadPeople[1], 'completed'],
    [moving.fails, plain[4], 'failed'],
    [moving.expires, plain[5], 'expired'],
  ];
  for (const [id, person, ending] of live) records.push(liveRequest(input, id, person, ending));
  return records;
}

function baseRequest(
  input: ErasureSeedInput,
  id: number,
  person: CustomerRecord | undefined,
  createdMs: number,
): ErasureRequestRecord {
  const fields: ErasureRequestFields = {
    tenant_id: input.tenantId,
    customer_id: person?.id ?? null,
    requested_by_user_id: REQUESTER_USER_ID,
    request_reason: REASONS[id % REASONS.length] ?? null,
    scope_summary: person === undefined ? [] : scopeSummaryFor(person, input.countsOf(person)),
    // An erased person had contact details when the request was made.
    verification_channel: person?.is_erased ? 'email' : verificationChannelFor(person),
  };
  return pendingErasureRequest(id, fields, createdMs);
}

/** Walks the request along its path to `status`, an hour per step, so every timestamp fits the status. */
function frozenRequest(
  input: ErasureSeedInput,
  id: number,
  status: ErasureStatus,
  person: CustomerRecord | undefined,
  createdMs: number,
): ErasureRequestRecord {
  const record = baseRequest(input, id, person, createdMs);
  const path: Record<ErasureStatus, ErasureStatus[]> = {
    pending_verification: [],
    verified: ['verified'],
    processing: ['verified', 'processing'],
    completed: ['verified', 'processing', 'completed'],
    failed: ['verified', 'processing', 'failed'],
    expired: ['expired'],
    cancelled: [],
  };
  path[status].forEach((step, index) => enterStatus(record, step, createdMs + (index + 1) * HOUR_MS));
  if (status === 'expired') record.updated_at = record.verification_expires_at ?? record.updated_at;
  if (status === 'pending_verification') {
    record.resend_count = 1;
    record.last_sent_at = apiTimestamp(createdMs + 2 * HOUR_MS);
    record.updated_at = record.last_sent_at;
  }
  if (status === 'cancelled') {
    const at = apiTimestamp(createdMs + 5 * HOUR_MS);
    Object.assign(record, {
      status,
      cancelled_at: at,
      cancelled_by_user_id: REQUESTER_USER_ID,
      cancellation_reason: 'Patient withdrew the request by phone.',
      updated_at: at,
    });
  }
  return record;
}

function liveRequest(
  input: ErasureSeedInput,
  id: number,
  person: CustomerRecord | undefined,
  ending: ErasureMovement['ending'],
): ErasureRequestRecord {
  const record = baseRequest(input, id, person, input.startMs);
  if (ending === 'expired') record.verification_expires_at = apiTimestamp(input.startMs + input.stepMs);
  record.movement = { sinceMs: input.startMs, ending };
  return record;
}
