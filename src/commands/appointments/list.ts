// `clinic appointments list`: GET /v1/appointments, page by page.
import { cellText, valueAt } from '../../cli/output/fields.js';
import { relatedCustomerText } from '../../cli/output/related-customer.js';
import { pagedListVerb } from '../../cli/resource-verbs.js';
import { paths } from '../../core/api/resources.js';

const time = (path: string) => (record: unknown) =>
  cellText(valueAt(record, path)).replace('T', ' ').slice(0, 16);

export const APPOINTMENT_COLUMNS = [
  { header: 'ID', path: 'id' },
  { header: 'STARTS', path: 'starts_at', text: time('starts_at') },
  { header: 'ENDS', path: 'ends_at', text: time('ends_at') },
  { header: 'STATUS', path: 'status' },
  { header: 'CUSTOMER', path: 'customer_id', text: relatedCustomerText },
  { header: 'USER', path: 'user_id' },
  { header: 'TITLE', path: 'title' },
];

export const run = pagedListVerb({
  noun: 'appointments',
  path: paths.appointments,
  columns: APPOINTMENT_COLUMNS,
});
