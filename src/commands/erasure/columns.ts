// How data-erasure requests look in a table.
import { cellText, valueAt } from '../../cli/output/fields.js';
import { relatedCustomerText } from '../../cli/output/related-customer.js';
import { ERASURE_ACTIONS } from '../../core/api/erasure.js';

const day = (path: string) => (record: unknown) => cellText(valueAt(record, path)).slice(0, 10);

export const ERASURE_COLUMNS = [
  { header: 'ID', path: 'id' },
  { header: 'STATUS', path: 'status' },
  { header: 'CUSTOMER', path: 'customer_id', text: relatedCustomerText },
  { header: 'CREATED', path: 'created_at', text: day('created_at') },
  { header: 'VERIFIED', path: 'verified_at', text: day('verified_at') },
  { header: 'EXECUTED', path: 'executed_at', text: day('executed_at') },
  {
    header: 'ALLOWS',
    path: 'state_allows',
    text: (record: unknown) =>
      ERASURE_ACTIONS.filter((action) => valueAt(record, `state_allows.${action}`) === true).join(' ') || '—',
  },
];
