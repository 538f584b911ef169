// How data-erasure requests look in a table: id and status are never cut; who and when come next, then what the
// state allows; the dates of later steps give way first.
import { valueAt } from '../../cli/output/fields.js';
import { relatedCustomerText } from '../../cli/output/related-customer.js';
import { WHOLE } from '../../cli/output/fit.js';
import type { Column } from '../../cli/output/table.js';
import { ERASURE_ACTIONS } from '../../core/api/erasure.js';

export const ERASURE_COLUMNS: Column[] = [
  { header: 'ID', path: 'id', keep: true },
  { header: 'STATUS', path: 'status', keep: true },
  { header: 'CUSTOMER', path: 'customer_id', text: relatedCustomerText, priority: 9, min: 14 },
  { header: 'CREATED', path: 'created_at', priority: 7 },
  {
    header: 'ALLOWS',
    path: 'state_allows',
    text: (record: unknown) =>
      ERASURE_ACTIONS.filter((action) => valueAt(record, `state_allows.${action}`) === true).join(' ') || '—',
    priority: 6,
    min: WHOLE,
  },
  { header: 'VERIFIED', path: 'verified_at', priority: 2 },
  { header: 'EXECUTED', path: 'executed_at', priority: 3 },
];
