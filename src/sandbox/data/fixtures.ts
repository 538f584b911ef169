// Where the seeded fixtures sit: fixed id blocks per tenant (independent of --seed and --records), and the
// description of them that a running sandbox hands to tests.
import { ERASURE_STATUSES, type ErasureStatus } from '../../core/api/erasure-states.js';

/** Tenants that get generated data (tenant 4 is closed and empty). */
export const SEEDED_TENANT_IDS = [1, 2, 3] as const;

export const PER_TENANT = {
  channels: 4,
  conversations: 3,
  appointments: 12,
  formTemplates: 3,
  announcements: 5,
  aiReports: 3,
  sales: 3,
  erasureRequests: 10,
} as const;

export const MESSAGES_PER_CONVERSATION = 6;

/** The ids of one tenant's block of `kind`: tenant 1 gets 1..n, tenant 2 n+1..2n, and so on. */
export function blockIds(kind: keyof typeof PER_TENANT, tenantId: number): number[] {
  const size = PER_TENANT[kind];
  const start = SEEDED_TENANT_IDS.indexOf(tenantId as 1 | 2 | 3) * size + 1;
  return Array.from({ length: size }, (_, index) => start + index);
}

/** Erasure request ids of a tenant: one frozen request per status in status order, then three live ones. */
export function erasureFixtureIds(tenantId: number) {
  const ids = blockIds('erasureRequests', tenantId);
  const byStatus = Object.fromEntries(ERASURE_STATUSES.map((status, index) => [status, ids[index]]));
  const [completes = 0, fails = 0, expires = 0] = ids.slice(ERASURE_STATUSES.length);
  return { byStatus: byStatus as Record<ErasureStatus, number>, moving: { completes, fails, expires } };
}

export interface LeadFixtures {
  /** A lead whose person was erased: notes answer CUSTOMER_ERASED. */
  customerErased: number;
  /** Assigned to the admin (user 1): the salesperson gets LEAD_NOT_ASSIGNED. */
  assignedToAnotherUser: number;
  unassigned: number;
  assignedToSalesperson: number;
}

export interface TenantFixtures {
  erasureRequests: Record<ErasureStatus, number>;
  movingErasureRequests: { completes: number; fails: number; expires: number };
  leads: LeadFixtures;
  channels: number[];
  conversations: number[];
  /** Message ids per conversation id, ascending. */
  messages: Record<number, number[]>;
  formTemplates: number[];
  announcements: { current: number[]; expired: number; inactive: number };
  aiReports: { ready: number[]; notReady: number };
  sales: { notDeducted: number[]; alreadyDeducted: number };
  appointments: number[];
}

export interface SandboxFixtures {
  /** The seeded salesperson (tenant 1). */
  salespersonUserId: number;
  tenants: Record<number, TenantFixtures>;
}

/** Everything but the leads follows from the fixed layout; lead ids come after the generated ones. */
export function describeFixtures(
  salespersonUserId: number,
  leads: ReadonlyMap<number, LeadFixtures>,
): SandboxFixtures {
  const tenants: Record<number, TenantFixtures> = {};
  for (const tenantId of SEEDED_TENANT_IDS) {
    const erasure = erasureFixtureIds(tenantId);
    const conversations = blockIds('conversations', tenantId);
    const announcements = blockIds('announcements', tenantId);
    const reports = blockIds('aiReports', tenantId);
    const sales = blockIds('sales', tenantId);
    const tenantLeads = leads.get(tenantId);
    if (tenantLeads === undefined) throw new Error(`no lead fixtures for tenant ${tenantId}`);
    tenants[tenantId] = {
      erasureRequests: erasure.byStatus,
      movingErasureRequests: erasure.moving,
      leads: tenantLeads,
      channels: blockIds('channels', tenantId),
      conversations,
      messages: Object.fromEntries(conversations.map((id) => [id, messageIdsOf(id)])),
      formTemplates: blockIds('formTemplates', tenantId),
      announcements: {
        current: announcements.slice(0, 3),
        expired: announcements[3] ?? 0,
        inactive: announcements[4] ?? 0,
      },
      aiReports: { ready: reports.slice(0, 2), notReady: reports[2] ?? 0 },
      sales: { notDeducted: sales.slice(0, 2), alreadyDeducted: sales[2] ?? 0 },
      appointments: blockIds('appointments', tenantId),
    };
  }
  return { salespersonUserId, tenants };
}

/** Seeded messages are numbered conversation by conversation, on one sequence shared by every tenant. */
export function messageIdsOf(conversationId: number): number[] {
  const start = (conversationId - 1) * MESSAGES_PER_CONVERSATION + 1;
  return Array.from({ length: MESSAGES_PER_CONVERSATION }, (_, index) => start + index);
}
