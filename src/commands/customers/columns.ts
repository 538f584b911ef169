// How customers look in a table.
import { cellText, valueAt } from '../../cli/output/fields.js';
import type { Column } from '../../cli/output/table.js';
import { joinText } from '../../cli/output/text.js';

const fullName = (record: unknown) =>
  joinText([valueAt(record, 'first_name'), valueAt(record, 'last_name')]) || '—';

export const CUSTOMER_COLUMNS: Column[] = [
  { header: 'ID', path: 'id' },
  { header: 'NAME', path: 'first_name', text: fullName },
  { header: 'EMAIL', path: 'email' },
  { header: 'PHONE', path: 'phone_number' },
  { header: 'CREATED', path: 'created_at', text: (r) => cellText(valueAt(r, 'created_at')).slice(0, 10) },
];
