// How a RelatedCustomer reads in a table cell: its name (as masked by the server), and whether it is still a lead.
import { valueAt } from './fields.js';
import { joinText, textOf } from './text.js';

export function relatedCustomerText(record: unknown): string {
  const customer = valueAt(record, 'customer');
  const id = valueAt(record, 'customer_id') ?? valueAt(customer, 'id');
  if (!customer || typeof customer !== 'object') return id == null ? '—' : `#${textOf(id)}`;
  const name = joinText([valueAt(customer, 'first_name'), valueAt(customer, 'last_name')]);
  const masked = valueAt(customer, 'is_masked') === true ? ' (masked)' : '';
  const lead = valueAt(customer, 'is_lead_stage') === true;
  const leadId = valueAt(customer, 'lead_id');
  const who = lead ? `lead #${textOf(leadId ?? '?')}` : `#${textOf(valueAt(customer, 'id') ?? id)}`;
  return `${who} ${name || '—'}${masked}`;
}
