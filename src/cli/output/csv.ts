// RFC 4180 CSV rows (CRLF, quotes doubled, fields with commas, quotes or newlines quoted) via csv-stringify, with
// cells a spreadsheet would run as a formula neutralized (OWASP: a leading '), unless --csv-raw.
import { lazyRequire } from '../../core/lazy-require.js';
import { cellText, valueAt } from './fields.js';

const csvStringify = lazyRequire<typeof import('csv-stringify/sync')>('csv-stringify/sync');

const FORMULA_START = /^[=+\-@\t\r]/;
/** Plainly a number (-12.5, +3) or a phone number (+44 7700 900123, +1 (555) 010-0000): left as it is. */
const HARMLESS = /^[+-]?(\d+(\.\d+)?|\.\d+)$|^\+?[\d ().-]*\d[\d ().-]*$/;

/** `=HYPERLINK(…)` becomes `'=HYPERLINK(…)`; numbers and phone numbers stay exact. */
export function neutralizeFormula(cell: string): string {
  return FORMULA_START.test(cell) && !HARMLESS.test(cell) ? `'${cell}` : cell;
}

const OPTIONS = {
  record_delimiter: 'windows',
  quote_record_delimiter: true,
  quoted_match: /^\s|\s$/,
} as const;

export function csvRow(cells: string[], raw = false): string {
  return csvStringify().stringify([raw ? cells : cells.map(neutralizeFormula)], OPTIONS);
}

export function csvRecord(record: unknown, columns: string[], raw = false): string {
  return csvRecords([record], columns, raw);
}

/** Rows of many records in one pass of the stringifier (a page at a time, not one stringifier per row). */
export function csvRecords(records: readonly unknown[], columns: string[], raw = false): string {
  if (records.length === 0) return '';
  const rows = records.map((record) => {
    const cells = columns.map((column) => cellText(valueAt(record, column) ?? flatValue(record, column)));
    return raw ? cells : cells.map(neutralizeFormula);
  });
  return csvStringify().stringify(rows, OPTIONS);
}

/** A dotted column may also be a literal key containing dots. */
function flatValue(record: unknown, column: string): unknown {
  return typeof record === 'object' && record !== null
    ? (record as Record<string, unknown>)[column]
    : undefined;
}
