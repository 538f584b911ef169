// Visible marks for records the viewer cannot fully see or change (masked identity, read-only state), on the record
// itself or on the related customer it carries (`customer`), which may still be a lead.
import { valueAt } from './fields.js';

function marksOf(record: unknown, prefix: string): string[] {
  const marks: string[] = [];
  if (valueAt(record, 'is_masked') === true) marks.push(`${prefix}masked`);
  if (valueAt(record, 'record_state.is_read_only') === true) {
    const reason = valueAt(record, 'record_state.reason_code');
    marks.push(typeof reason === 'string' ? `${prefix}read-only: ${reason}` : `${prefix}read-only`);
  }
  return marks;
}

export function recordMarks(record: unknown): string {
  const marks = marksOf(record, '');
  const customer = valueAt(record, 'customer');
  if (customer && typeof customer === 'object') {
    if (valueAt(customer, 'is_lead_stage') === true) marks.push('customer is a lead');
    marks.push(...marksOf(customer, 'customer '));
  }
  return marks.join(', ');
}
