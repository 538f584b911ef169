// `clinic appointments list`: GET /v1/appointments, page by page.
import { relatedCustomerText } from '../../cli/output/related-customer.js';
import type { Column } from '../../cli/output/table.js';
import { pagedListVerb } from '../../cli/resource-verbs.js';
import { paths } from '../../core/api/resources.js';

export const APPOINTMENT_COLUMNS: Column[] = [
  { header: 'ID', path: 'id', keep: true },
  { header: 'STARTS', path: 'starts_at', priority: 8 },
  { header: 'ENDS', path: 'ends_at', priority: 2 },
  { header: 'STATUS', path: 'status', keep: true },
  { header: 'CUSTOMER', path: 'customer_id', text: relatedCustomerText, priority: 7, min: 14 },
  { header: 'USER', path: 'user_id', priority: 3 },
  { header: 'TITLE', path: 'title', priority: 5, min: 10 },
];

export const run = pagedListVerb({
  noun: 'appointments',
  path: paths.appointments,
  columns: APPOINTMENT_COLUMNS,
});
