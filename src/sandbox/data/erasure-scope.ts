// What an erasure of one person covers (`scope_summary`), counted from the records that point at the person.
import type { ScopeSummaryItem } from './erasure-types.js';
import type { CustomerRecord } from './types.js';

export interface PersonRecordCounts {
  conversations: number;
  appointments: number;
}

export function scopeSummaryFor(person: CustomerRecord, counts: PersonRecordCounts): ScopeSummaryItem[] {
  const items: ScopeSummaryItem[] = [
    { resource: 'customer_profile', description: 'Name, contact details and date of birth', records: 1 },
  ];
  if (person.lead_id !== null) {
    items.push({ resource: 'lead', description: 'Lead record and its notes', records: 1 });
  }
  items.push(
    {
      resource: 'conversations',
      description: 'Chat messages and voice notes',
      records: counts.conversations,
    },
    { resource: 'appointments', description: 'Appointment history', records: counts.appointments },
    // Not modelled elsewhere in the sandbox: a stable made-up count.
    { resource: 'documents', description: 'Uploaded files and signed forms', records: person.id % 4 },
  );
  return items;
}

/** Email when the person has an address, else SMS, else no channel at all. */
export function verificationChannelFor(person: CustomerRecord | undefined): 'email' | 'sms' | null {
  if (person?.email) return 'email';
  return person?.phone_number ? 'sms' : null;
}
