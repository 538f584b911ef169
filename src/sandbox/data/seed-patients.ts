// Generated patients and leads: the original seed stream, so customer ids and values never change with new kinds.
import { createRandom, pick, type Random, randomInt } from '../random.js';
import { LEAD_OWNER_USER_ID } from './fixed-records.js';
import {
  CUSTOMER_NOTES,
  FEMALE_FIRST_NAMES,
  LAST_NAMES,
  MALE_FIRST_NAMES,
  OPEN_LEAD_STATUSES,
} from './names.js';
import { apiTimestamp, minutesAfterEpoch } from './time.js';
import type { CustomerRecord, LeadRecord } from './types.js';

const OPEN_LEADS_PER_TENANT = 3;
const MINUTES_PER_DAY = 24 * 60;

// Fixed positions rather than dice, so every page-sized slice shows erased and lead rows for tests and demos.
const isErasedSlot = (index: number) => index % 8 === 5;
const isLeadSlot = (index: number) => index % 6 === 2;

interface Counters {
  customerId: number;
  leadId: number;
}

export function seedPatientsAndLeads(seed: number, records: number, tenantIds: readonly number[]) {
  const random = createRandom(seed);
  const counters: Counters = { customerId: 1, leadId: 1 };
  const customers: CustomerRecord[] = [];
  const leads: LeadRecord[] = [];
  for (const tenantId of tenantIds) {
    for (let index = 0; index < records; index++) {
      customers.push(seedCustomer(random, tenantId, index, counters, leads));
    }
    for (let index = 0; index < OPEN_LEADS_PER_TENANT; index++) {
      leads.push(seedOpenLead(random, tenantId, counters));
    }
  }
  return { customers, leads };
}

function seedCustomer(
  random: Random,
  tenantId: number,
  index: number,
  counters: Counters,
  leads: LeadRecord[],
): CustomerRecord {
  const id = counters.customerId++;
  const female = random() < 0.5;
  const firstName = pick(random, female ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES);
  const lastName = pick(random, LAST_NAMES);
  const createdMs = minutesAfterEpoch(randomInt(random, 0, 180 * MINUTES_PER_DAY));
  const updatedMs = createdMs + randomInt(random, 0, 30 * MINUTES_PER_DAY) * 60_000;
  const birthDate = `${randomInt(random, 1945, 2008)}-${pad(randomInt(random, 1, 12))}-${pad(randomInt(random, 1, 28))}`;
  const phone = `+44 7700 9${pad(randomInt(random, 0, 99_999), 5)}`;
  const notes = random() < 0.2 ? pick(random, CUSTOMER_NOTES) : null;
  const base = {
    id,
    tenant_id: tenantId,
    created_at: apiTimestamp(createdMs),
    updated_at: apiTimestamp(updatedMs),
  };
  if (isErasedSlot(index)) {
    // Erasure keeps the row for bookkeeping but wipes every personal field.
    const identity = { first_name: null, last_name: null, email: null, phone_number: null };
    const rest = { date_of_birth: null, gender: null, notes: null, lead_id: null, assigned_user_id: null };
    return { ...base, ...identity, ...rest, is_erased: true, is_lead_stage: false };
  }
  let leadId: number | null = null;
  if (isLeadSlot(index)) {
    leadId = counters.leadId++;
    leads.push({
      id: leadId,
      tenant_id: tenantId,
      name: `${firstName} ${lastName}`,
      status: 'converted',
      assigned_user_id: LEAD_OWNER_USER_ID,
      customer_id: id,
      created_at: apiTimestamp(createdMs - randomInt(random, 1, 14) * MINUTES_PER_DAY * 60_000),
    });
  }
  return {
    ...base,
    first_name: firstName,
    last_name: lastName,
    email: `${firstName}.${lastName.replace(/[^a-z]/gi, '')}${id}@example.com`.toLowerCase(),
    phone_number: phone,
    date_of_birth: birthDate,
    gender: female ? 'female' : 'male',
    notes,
    lead_id: leadId,
    assigned_user_id: leadId === null ? null : LEAD_OWNER_USER_ID,
    is_erased: false,
    is_lead_stage: false,
  };
}

function seedOpenLead(random: Random, tenantId: number, counters: Counters): LeadRecord {
  const firstName = pick(random, random() < 0.5 ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES);
  return {
    id: counters.leadId++,
    tenant_id: tenantId,
    name: `${firstName} ${pick(random, LAST_NAMES)}`,
    status: pick(random, OPEN_LEAD_STATUSES),
    assigned_user_id: random() < 0.7 ? LEAD_OWNER_USER_ID : 1,
    customer_id: null,
    created_at: apiTimestamp(minutesAfterEpoch(randomInt(random, 0, 180 * MINUTES_PER_DAY))),
  };
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}
