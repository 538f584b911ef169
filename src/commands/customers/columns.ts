// How customers look in a table: id and email are never cut; the phone, then the date, give way first.
import { valueAt } from '../../cli/output/fields.js';
import { WHOLE } from '../../cli/output/fit.js';
import type { Column } from '../../cli/output/table.js';
import { joinText } from '../../cli/output/text.js';

const fullName = (record: unknown) =>
  joinText([valueAt(record, 'first_name'), valueAt(record, 'last_name')]) || '—';

export const CUSTOMER_COLUMNS: Column[] = [
  { header: 'ID', path: 'id', keep: true },
  { header: 'NAME', path: 'first_name', text: fullName, priority: 8, min: 12 },
  { header: 'EMAIL', path: 'email', keep: true, wrap: true },
  { header: 'PHONE', path: 'phone_number', priority: 3, min: WHOLE },
  { header: 'CREATED', path: 'created_at', priority: 2 },
];
