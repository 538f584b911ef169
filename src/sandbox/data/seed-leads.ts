// Lead-stage people: one for each open lead, plus four fixture leads per tenant for the lead note rules.
import { pick, type Random, randomInt } from '../random.js';
import type { LeadFixtures } from './fixtures.js';
import { FEMALE_FIRST_NAMES, LAST_NAMES, MALE_FIRST_NAMES } from './names.js';
import { apiTimestamp, minutesAfterEpoch } from './time.js';
import type { CustomerRecord, LeadRecord } from './types.js';
import { highestId } from './ids.js';

const ADMIN_USER_ID = 1;

/**
 * Gives every open lead its lead-stage person, then adds the fixture leads after every generated one (so their
 * ids depend on --records) with people on the customer sequence after the patients.
 */
export function seedLeadStage(
  random: Random,
  tenantIds: readonly number[],
  salespersonId: number,
  customers: CustomerRecord[],
  leads: LeadRecord[],
): Map<number, LeadFixtures> {
  let nextCustomerId = highestId(customers) + 1;
  let nextLeadId = highestId(leads) + 1;
  const addPerson = (lead: LeadRecord, erased = false) => {
    const person = leadStagePerson(random, nextCustomerId++, lead);
    customers.push(erased ? eraseIdentity(person) : person);
    lead.customer_id = person.id;
  };
  for (const lead of leads.filter((candidate) => candidate.customer_id === null)) addPerson(lead);

  const fixtures = new Map<number, LeadFixtures>();
  for (const tenantId of tenantIds) {
    const newLead = (assignee: number | null, status: string) => {
      const first = pick(random, random() < 0.5 ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES);
      const lead: LeadRecord = {
        id: nextLeadId++,
        tenant_id: tenantId,
        name: `${first} ${pick(random, LAST_NAMES)}`,
        status,
        assigned_user_id: assignee,
        customer_id: null,
        created_at: apiTimestamp(minutesAfterEpoch(-randomInt(random, 1, 60) * 24 * 60)),
      };
      leads.push(lead);
      return lead;
    };
    const erasedLead = newLead(salespersonId, 'lost');
    addPerson(erasedLead, true);
    const othersLead = newLead(ADMIN_USER_ID, 'contacted');
    addPerson(othersLead);
    const unassignedLead = newLead(null, 'new');
    addPerson(unassignedLead);
    const ownLead = newLead(salespersonId, 'qualified');
    addPerson(ownLead);
    fixtures.set(tenantId, {
      customerErased: erasedLead.id,
      assignedToAnotherUser: othersLead.id,
      unassigned: unassignedLead.id,
      assignedToSalesperson: ownLead.id,
    });
  }
  return fixtures;
}

function leadStagePerson(random: Random, id: number, lead: LeadRecord): CustomerRecord {
  const [first = lead.name, ...rest] = lead.name.split(' ');
  const last = rest.join(' ');
  return {
    id,
    tenant_id: lead.tenant_id,
    first_name: first,
    last_name: last,
    email: `${first}.${last.replace(/[^a-z]/gi, '')}${id}@example.com`.toLowerCase(),
    phone_number: `+44 7700 9${String(randomInt(random, 0, 99_999)).padStart(5, '0')}`,
    date_of_birth: null,
    gender: null,
    notes: null,
    lead_id: lead.id,
    assigned_user_id: lead.assigned_user_id,
    is_erased: false,
    is_lead_stage: true,
    created_at: lead.created_at,
    updated_at: lead.created_at,
  };
}

function eraseIdentity(person: CustomerRecord): CustomerRecord {
  return {
    ...person,
    first_name: null,
    last_name: null,
    email: null,
    phone_number: null,
    assigned_user_id: null,
    is_erased: true,
  };
}
