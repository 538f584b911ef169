// RFC 4180 CSV rows (CRLF, quotes doubled, fields with commas, quotes or newlines quoted) via csv-stringify.
import { stringify } from 'csv-stringify/sync';
import { cellText, valueAt } from './fields.js';

export function csvRow(cells: string[]): string {
  return stringify([cells], {
    record_delimiter: 'windows',
    quote_record_delimiter: true,
    quoted_match: /^\s|\s$/,
  });
}

export function csvRecord(record: unknown, columns: string[]): string {
  return csvRow(columns.map((column) => cellText(valueAt(record, column) ?? flatValue(record, column))));
}

/** A dotted column may also be a literal key containing dots. */
function flatValue(record: unknown, column: string): unknown {
  return typeof record === 'object' && record !== null
    ? (record as Record<string, unknown>)[column]
    : undefined;
}
