// Builds a sandbox store from a seed: the fixed cast plus generated records, identical for equal seeds.
import { createRandom, deriveSeed } from '../random.js';
import { LEAD_OWNER_USER_ID, MEMBERSHIPS, TENANTS, USERS } from './fixed-records.js';
import { describeFixtures, SEEDED_TENANT_IDS } from './fixtures.js';
import { seedChat } from './seed-chat.js';
import { seedAiReports, seedAnnouncements, seedAppointments, seedSales } from './seed-clinic.js';
import { seedErasureRequests } from './seed-erasure.js';
import { seedFormTemplates } from './seed-forms.js';
import { seedLeadStage } from './seed-leads.js';
import { seedPatientsAndLeads } from './seed-patients.js';
import { SandboxStore } from './store.js';
import type { CustomerRecord } from './types.js';

export interface SeedOptions {
  seed: number;
  /** Customers per tenant with data (tenants 1 to 3). */
  records: number;
  /** Seconds between two steps of a live erasure request; default 30, 0 = frozen. */
  erasureStepSeconds?: number;
  /** When the sandbox starts (live erasure requests are anchored here); default the wall clock. */
  startMs?: number;
}

export const DEFAULT_ERASURE_STEP_SECONDS = 30;

export function buildSeedStore(options: SeedOptions): SandboxStore {
  const erasureStepSeconds = options.erasureStepSeconds ?? DEFAULT_ERASURE_STEP_SECONDS;
  const startMs = options.startMs ?? Date.now();
  // Each later kind draws from its own stream, so the patients stay what they always were.
  const stream = (label: string) => createRandom(deriveSeed(options.seed, label));
  const tenantIds = SEEDED_TENANT_IDS;
  const { customers, leads } = seedPatientsAndLeads(options.seed, options.records, tenantIds);
  const leadFixtures = seedLeadStage(stream('leads'), tenantIds, LEAD_OWNER_USER_ID, customers, leads);
  const patientsOf = (tenantId: number) =>
    customers.filter((customer) => customer.tenant_id === tenantId && !customer.is_lead_stage);
  const chat = seedChat(stream('chat'), tenantIds, patientsOf, MEMBERSHIPS);
  const appointmentRandom = stream('appointments');
  const appointments = tenantIds.flatMap((id) =>
    seedAppointments(appointmentRandom, id, patientsOf(id), MEMBERSHIPS),
  );
  const salesRandom = stream('sales');
  const countsOf = (person: CustomerRecord) => ({
    conversations: chat.conversations.filter((c) => c.customer_id === person.id).length,
    appointments: appointments.filter((a) => a.customer_id === person.id).length,
  });
  const erasureRequests = tenantIds.flatMap((tenantId) =>
    seedErasureRequests({
      tenantId,
      people: customers.filter((customer) => customer.tenant_id === tenantId),
      leadFixtures: leadFixtures.get(tenantId) ?? missing(tenantId),
      countsOf,
      startMs,
      stepMs: Math.round(erasureStepSeconds * 1000),
    }),
  );
  return new SandboxStore(
    {
      tenants: TENANTS.map((tenant) => ({ ...tenant })),
      users: USERS.map((user) => ({ ...user, language: [...user.language] })),
      memberships: [...MEMBERSHIPS],
      customers,
      leads,
      ...chat,
      appointments,
      formTemplates: seedFormTemplates(tenantIds),
      announcements: tenantIds.flatMap(seedAnnouncements),
      aiReports: tenantIds.flatMap(seedAiReports),
      sales: tenantIds.flatMap((id) => seedSales(salesRandom, id, patientsOf(id))),
      erasureRequests,
      fixtures: describeFixtures(LEAD_OWNER_USER_ID, leadFixtures),
    },
    { erasureStepSeconds },
  );
}

function missing(tenantId: number): never {
  throw new Error(`no lead fixtures for tenant ${tenantId}`);
}
