// How a RelatedCustomer reads in a table cell: its name (as masked by the server), and whether it is still a lead.
import { valueAt } from './fields.js';

export function relatedCustomerText(record: unknown): string {
  const customer = valueAt(record, 'customer');
  const id = valueAt(record, 'customer_id') ?? valueAt(customer, 'id');
  if (!customer || typeof customer !== 'object') return id == null ? '—' : `#${String(id)}`;
  const name = [valueAt(customer, 'first_name'), valueAt(customer, 'last_name')]
    .filter((part) => part != null && part !== '')
    .join(' ');
  const masked = valueAt(customer, 'is_masked') === true ? ' (masked)' : '';
  const lead = valueAt(customer, 'is_lead_stage') === true;
  const leadId = valueAt(customer, 'lead_id');
  const who = lead ? `lead #${String(leadId ?? '?')}` : `#${String(valueAt(customer, 'id') ?? id)}`;
  return `${who} ${name || '—'}${masked}`;
}
