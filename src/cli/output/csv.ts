// RFC 4180 CSV rows (CRLF, quotes doubled, fields with commas, quotes, line breaks or edge spaces quoted), with
// cells a spreadsheet would run as a formula neutralized (OWASP: a leading '), unless --csv-raw.
// Written here rather than with csv-stringify: its arrays and objects for every cell made V8 grow its young
// generation during long exports (a 100,000-record CSV export peaked 26% above a 10,000-record one; this: flat).
// Reading CSV stays with csv-parse, which also checks this writer in the property tests.
// On a terminal (unless --csv-raw) every cell, header included, is sanitized like a table's and rows end in LF: a
// server value cannot send escape sequences to the terminal; into a pipe or a file the data stay exact.
import { cellText, ownField, valueAt } from './fields.js';
import { sanitize } from './sanitize.js';

const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * Plainly a number (-12.5, +3, -1e5) or a phone number written in groups (+44 7700 900123, +1 (555) 010-0000): left
 * as it is. A spreadsheet reads a space between two numbers as its intersection operator, an error, never a value; so
 * a phone number is groups of digits (with `()`, `.`, `-` inside) separated by spaces, each group starting with a
 * digit or `(` and ending with a digit or `)`. Without those spaces it is arithmetic a spreadsheet computes
 * (`+1-1` shows 0, `+1-555-0100` shows -654), as is a `-` or `+` beside a space (`+1 -1`), or a leading `-`.
 */
const HARMLESS =
  /^[+-]?(\d+(\.\d+)?|\.\d+)([eE][+-]?\d+)?$|^\+\(?\d(?:[\d().-]*[\d)])?(?: \(?\d(?:[\d().-]*[\d)])?)+$/;

/** `=HYPERLINK(…)` becomes `'=HYPERLINK(…)`; numbers and phone numbers stay exact. */
export function neutralizeFormula(cell: string): string {
  return FORMULA_START.test(cell) && !HARMLESS.test(cell) ? `'${cell}` : cell;
}

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

const quoted = (cell: string): string => (NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

function row(cells: string[], raw: boolean, terminal: boolean): string {
  const safe = terminal && !raw;
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = safe ? sanitize(cells[i] as string) : (cells[i] as string);
    line += `${i ? ',' : ''}${quoted(raw ? cell : neutralizeFormula(cell))}`;
  }
  return `${line}${safe ? '\n' : '\r\n'}`;
}

/** One row; `raw` keeps cells exact (--csv-raw), `terminal` makes them safe to show (stdout is a terminal). */
export function csvRow(cells: string[], raw = false, terminal = false): string {
  return row(cells, raw, terminal);
}

export function csvRecord(record: unknown, columns: string[], raw = false, terminal = false): string {
  return csvRecords([record], columns, raw, terminal);
}

/** The rows of many records (a page at a time: one write per page). */
export function csvRecords(
  records: readonly unknown[],
  columns: string[],
  raw = false,
  terminal = false,
): string {
  let text = '';
  for (const record of records)
    text += row(
      columns.map((column) => cellText(valueAt(record, column) ?? flatValue(record, column))),
      raw,
      terminal,
    );
  return text;
}

/** A dotted column may also be a literal key containing dots; a record that is no object is its `value` column. */
function flatValue(record: unknown, column: string): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    return column === 'value' ? record : undefined;
  return ownField(record, column);
}
