// Human tables of records, fitted to the terminal's width (fit.ts) and drawn in a frame (frame.ts).
import { cellText, valueAt } from './fields.js';
import { type ColumnNeeds, fitColumns } from './fit.js';
import { drawFrame, HIGHLIGHT, painted } from './frame.js';
import { largest } from './largest.js';
import { recordMarks } from './marks.js';
import { sanitize } from './sanitize.js';
import { displayWidth, wrapText } from './cells.js';
import { HumanTimes } from './time.js';

export interface Column {
  header: string;
  path: string;
  /** Custom cell text, e.g. a full name from two fields. */
  text?: (record: unknown) => string;
  /** An identifying or state value (an id, a status, an email): never cut, never dropped (see wrap). */
  keep?: boolean;
  /** Higher stays longer on a narrow terminal: the lowest shrinks first, then is dropped first (default 0). */
  priority?: number;
  /** The narrowest the column shrinks to before it is dropped instead (default 8; WHOLE: never cut); times are never cut. */
  min?: number;
  /** Named by --fields: shown even when empty in every row. */
  asked?: boolean;
  /**
   * Long cells wrap onto more lines inside the column instead of being cut (a note, a setting's value); in a kept
   * column (emails), the few values longer than most wrap, between their pieces, before any column gives way.
   */
  wrap?: boolean;
}

export interface TableStyle {
  colour: boolean;
  /** Terminal width: the table fits it. */
  width: number;
  /** --wide: every column, every cell in full, whatever the width. */
  wide?: boolean;
  times?: HumanTimes;
}

export interface TableText {
  text: string;
  /** Columns left out for want of room (lower-case names), for one line on stderr. */
  notShown: string[];
}

const DEFAULT_MIN = 8;
/**
 * Marks matter, and must be seen (the contract): they wrap rather than be cut, between words and after a reason
 * code's `_` (`CUSTOMER_` `ERASED`), in a column no narrower than reads as text (20 cells: `customer is a lead,`); the column goes before the
 * customer and the date, after later dates, and then each mark is a line below the table (markLines), which reads
 * better than a note a word a line.
 */
const NOTE_COLUMN: Column = {
  header: 'NOTE',
  path: '',
  text: recordMarks,
  priority: 5,
  min: 20,
  wrap: true,
};

interface Cell {
  text: string;
  /** The instant of a date-time value, shown as local time. */
  ms?: number;
}

function cellOf(record: unknown, column: Column, times: HumanTimes): Cell {
  if (column.text) return { text: sanitize(column.text(record)) };
  const value = valueAt(record, column.path);
  return times.of(value) ?? { text: sanitize(cellText(value)) };
}

/**
 * The width that holds three values in four whole (empty cells aside): a kept column that wraps (emails) narrows
 * this far before anything else gives way, so that the few long addresses wrap instead of pushing the names out.
 */
function mostOf(widths: readonly number[]): number {
  const sorted = widths.filter((width) => width > 0).sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.75) - 1] ?? 0;
}

/**
 * The marks of the records, a line each below the table (`note on ID 6: read-only: CUSTOMER_ERASED`), when the
 * terminal has no room for the NOTE column: each named by the cell of `first` (the ID column where it is shown), or
 * by its row.
 */
function markLines(
  records: readonly unknown[],
  first: { column: Column; cells: Cell[] } | undefined,
  style: TableStyle,
): string {
  const lines: string[] = [];
  records.forEach((record, row) => {
    const marks = sanitize(recordMarks(record));
    if (marks === '') return;
    const id = first?.cells[row]?.text ?? '';
    const name = id !== '' && first ? `${first.column.header.toUpperCase()} ${id}` : `row ${row + 1}`;
    // Lines after the first indented, so that each note reads as one.
    const indent = style.width > 20 ? '  ' : '';
    wrapText(`note on ${name}: ${marks}`, Math.max(1, style.width - indent.length)).forEach((line, at) =>
      lines.push(painted(style.colour, HIGHLIGHT, at === 0 ? line : `${indent}${line}`)),
    );
  });
  return lines.map((line) => `${line}\n`).join('');
}

/** What a column needs of the width (fit.ts), from its cells and its header. */
function needsOf(column: Column, cells: readonly Cell[], head: string): ColumnNeeds {
  // A --fields path may wrap at its dots and underscores: only its longest piece must fit.
  const header = column.asked
    ? largest(
        head.split(/(?<=[._])/).map((piece) => displayWidth(piece)),
        1,
      )
    : displayWidth(head);
  const widths = cells.map((cell) => displayWidth(cell.text));
  const natural = largest(widths, displayWidth(head));
  // Times are never cut: shown whole or left out.
  const allTimes = cells.every((cell) => cell.text === '' || cell.ms !== undefined);
  const kept = column.wrap ? Math.max(header, mostOf(widths)) : largest(widths, header);
  return {
    natural,
    keep: column.keep === true,
    priority: column.priority ?? 0,
    min: column.keep ? kept : allTimes ? natural : (column.min ?? DEFAULT_MIN),
    // A kept column whose header wraps may narrow, as wrapping cells do, to what its values need.
    wrap: (column.wrap === true || (column.keep === true && header < displayWidth(head))) && !allTimes,
  };
}

/** A table of records; a NOTE column appears when any record is masked or read-only. */
export function renderTable(records: unknown[], declared: Column[], style: TableStyle): TableText {
  if (records.length === 0) return { text: '', notShown: [] };
  const times = style.times ?? new HumanTimes(false);
  const marked = records.some((record) => recordMarks(record) !== '');
  // Columns asked for with --fields go before the marks, which can be lines below the table instead.
  const note = declared.some((column) => column.asked)
    ? { ...NOTE_COLUMN, priority: Math.min(...declared.map((column) => column.priority ?? 0)) - 1 }
    : NOTE_COLUMN;
  const all = marked ? [...declared, note] : declared;
  const cellsOf = (column: Column) => records.map((record) => cellOf(record, column, times));
  // A column empty in every row says nothing (unless --fields named it, or --wide asks for all).
  const every = all.map((column) => ({ column, cells: cellsOf(column) }));
  const filled = every.filter(
    ({ column, cells }) => style.wide || column.asked || cells.some((cell) => cell.text !== ''),
  );
  const columns = filled.length > 0 ? filled : every.slice(0, 1);

  const head = columns.map(({ column }) => column.header.toUpperCase());
  const needs = columns.map(({ column, cells }, i) => needsOf(column, cells, head[i] as string));
  const fitted = style.wide ? needs.map((need) => need.natural) : fitColumns(needs, style.width);
  const shown = columns.flatMap((entry, i) => {
    const width = fitted[i];
    return width === undefined ? [] : [{ ...entry, width, header: head[i] as string }];
  });
  const dropped = columns.filter((_, i) => fitted[i] === undefined).map(({ column }) => column);
  // Marks left out of the table are lines below it: not a column not shown.
  const notShown = dropped.filter((column) => column !== note).map((column) => column.header.toLowerCase());

  const rows = records.map((_, row) =>
    shown.map(({ column, cells, width }) => {
      const cell = cells[row] as Cell;
      if (cell.ms !== undefined) times.shown(cell.ms);
      if (style.wide) return cell.text;
      // A kept value or a mark is never cut: narrower than it, its column wraps it.
      const wraps = column.keep === true || column.wrap === true || column === note;
      return wraps ? wrapText(cell.text, width).join('\n') : cell.text;
    }),
  );
  const text = drawFrame({
    // A path named by --fields is what tells its column apart: wrapped at its dots and underscores, never cut.
    head: shown.map(({ header, column, width }) =>
      column.asked && displayWidth(header) > width ? wrapText(header, width, true).join('\n') : header,
    ),
    rows,
    widths: shown.map(({ width }) => width),
    colour: style.colour,
    highlighted: (_, i) => shown[i]?.column === note,
  });
  // Each mark named by the record's id where it is shown, else by the first column.
  const naming = shown.find(({ column }) => column.path === 'id') ?? shown[0];
  const notes = dropped.includes(note) ? markLines(records, naming, style) : '';
  return { text: `${text}\n${notes}`, notShown };
}
