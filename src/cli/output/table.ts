// Human tables through cli-table3 (loaded only when a table is printed).
import { cellText, valueAt } from './fields.js';
import { recordMarks } from './marks.js';
import { sanitize } from './sanitize.js';
import { clip } from './text.js';

export interface Column {
  header: string;
  path: string;
  /** Custom cell text, e.g. a full name from two fields. */
  text?: (record: unknown) => string;
}

export interface TableStyle {
  colour: boolean;
  /** Terminal width; long cells are cut to fit. */
  width: number;
}

const MARK_HEADER = 'NOTE';

async function newTable(head: string[], style: TableStyle, colWidths?: number[]) {
  const { default: Table } = await import('cli-table3');
  return new Table({
    head,
    ...(colWidths ? { colWidths } : {}),
    style: { head: style.colour ? ['cyan'] : [], border: style.colour ? ['grey'] : [], compact: true },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
}

const truncate = (text: string, max: number): string => clip(sanitize(text), max);

const paint = (on: boolean, text: string) => (on && text ? `\u001b[33m${text}\u001b[39m` : text);

/** Column widths that fit the terminal: the widest columns give way first, none below 8. */
export function fitWidths(natural: number[], width: number): number[] {
  const widths = [...natural];
  const frame = 3 * widths.length + 1;
  for (;;) {
    const total = widths.reduce((sum, w) => sum + w, 0) + frame;
    if (total <= width) return widths;
    const widest = widths.indexOf(Math.max(...widths));
    if ((widths[widest] ?? 0) <= 8) return widths;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
}

/** A table of records; a NOTE column appears when any record is masked or read-only. */
export async function renderTable(records: unknown[], columns: Column[], style: TableStyle): Promise<string> {
  if (records.length === 0) return '';
  const marked = records.some((record) => recordMarks(record) !== '');
  const head = columns.map((c) => c.header).concat(marked ? [MARK_HEADER] : []);
  const rows = records.map((record) => {
    const cells = columns.map((c) => sanitize(c.text ? c.text(record) : cellText(valueAt(record, c.path))));
    if (marked) cells.push(recordMarks(record));
    return cells;
  });
  const natural = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  // The NOTE column says what the viewer cannot see or change: the data columns give way before it does.
  const note = marked ? (natural.pop() ?? 0) : undefined;
  const widths = fitWidths(natural, style.width - (note === undefined ? 0 : note + 3));
  if (note !== undefined) widths.push(note);
  // Padding of one space either side; cli-table3 cuts headers that are wider than their column.
  const table = await newTable(
    head,
    style,
    widths.map((w) => w + 2),
  );
  for (const row of rows) {
    table.push(
      row.map((cell, i) => {
        const text = truncate(cell, widths[i] ?? cell.length);
        return marked && i === row.length - 1 ? paint(style.colour, text) : text;
      }),
    );
  }
  return `${table.toString()}\n`;
}

/** One resource as a two-column field/value table, with a NOTE row when it is masked, read-only or a lead. */
export async function renderFieldTable(
  entries: [string, unknown][],
  style: TableStyle,
  marks = '',
): Promise<string> {
  const table = await newTable(['FIELD', 'VALUE'], style);
  const max = Math.max(20, style.width - 30);
  for (const [field, value] of entries) table.push([truncate(field, max), truncate(cellText(value), max)]);
  if (marks) table.push([paint(style.colour, MARK_HEADER), paint(style.colour, truncate(marks, max))]);
  return `${table.toString()}\n`;
}
