// One record as a field/value table: nested objects as dotted fields, a list of objects as indented sub-rows (one per
// item), long values wrapped inside the terminal's width, times as people read them.
import { cellText, flatten } from './fields.js';
import { sanitize } from './sanitize.js';
import { displayWidth, wrapText } from './cells.js';
import { drawFrame } from './frame.js';
import { largest } from './largest.js';
import type { TableStyle } from './table.js';
import { textOf } from './text.js';
import { HumanTimes } from './time.js';

type Row = [field: string, value: string];

const FRAME = 7; // │ field │ value │
const NARROWEST = 10;

const isPlainObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown) => value === null || typeof value !== 'object';

/** A value's text: a date-time as local time, a list of plain values joined, anything else as a cell shows it. */
function valueText(value: unknown, times: HumanTimes): string {
  const time = times.of(value);
  if (time) {
    times.shown(time.ms);
    return time.text;
  }
  if (Array.isArray(value) && value.every(isScalar)) return value.map(textOf).join(', ');
  return cellText(value);
}

/** How deep sub-rows indent (two levels of lists: a question's options); a list deeper is shown as its JSON. */
const MAX_LIST_DEPTH = 3;

const isListOfObjects = (value: unknown): value is object[] =>
  Array.isArray(value) && value.length > 0 && value.every(isPlainObject);

/** A value that says nothing on an item's line: null, empty text, an empty list. */
const isBlank = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * An item of a list of objects on one sub-row: its filled fields, `name: value` apart by ` · `; its own lists of
 * objects (a question's options) are left to sub-rows of their own.
 */
function itemText(item: object, times: HumanTimes, nested: boolean): string {
  return Object.entries(flatten(item))
    .filter(([, value]) => !isBlank(value) && !(nested && isListOfObjects(value)))
    .map(([field, value]) => `${field}: ${valueText(value, times)}`)
    .join(' · ');
}

/** A list of objects as sub-rows: each item numbered (`2`, then `2.1` below it), its lists of objects below it. */
function listRows(items: object[], times: HumanTimes, depth: number, number = ''): Row[] {
  const indent = '  '.repeat(depth);
  const nested = depth < MAX_LIST_DEPTH;
  return items.flatMap((item, index) => {
    const label = `${number}${index + 1}`;
    const rows: Row[] = [[`${indent}${label}`, itemText(item, times, nested)]];
    if (nested)
      for (const [field, value] of Object.entries(flatten(item)))
        if (isListOfObjects(value))
          rows.push([`${indent}  ${field}`, ''], ...listRows(value, times, depth + 2, `${label}.`));
    return rows;
  });
}

function recordRows(record: unknown, times: HumanTimes): Row[] {
  const rows: Row[] = [];
  for (const [field, value] of Object.entries(flatten(record))) {
    if (isListOfObjects(value)) rows.push([field, ''], ...listRows(value, times, 1));
    else rows.push([field, valueText(value, times)]);
  }
  return rows.map(([field, value]) => [sanitize(field), sanitize(value)]);
}

/** The field and value columns' widths: both whole when they fit, else the field column gets at most 40%. */
function columnWidths(rows: Row[], width: number): [number, number] {
  const room = width - FRAME;
  const field = largest(
    rows.map(([f]) => displayWidth(f)),
    0,
  );
  const value = largest(
    rows.map(([, v]) => displayWidth(v)),
    0,
  );
  if (field + value <= room) return [field, value];
  const fieldWidth = Math.min(field, Math.max(NARROWEST, Math.floor(room * 0.4)));
  const valueWidth = Math.max(NARROWEST, Math.min(value, room - fieldWidth));
  return [Math.max(fieldWidth, Math.min(field, room - valueWidth)), valueWidth];
}

/** One resource as a two-column field/value table, with a NOTE row when it is masked, read-only or a lead. */
export function renderFieldTable(record: unknown, style: TableStyle, marks = ''): string {
  const times = style.times ?? new HumanTimes(false);
  const rows: Row[] = [['FIELD', 'VALUE'], ...recordRows(record, times)];
  if (marks) rows.push(['NOTE', sanitize(marks)]);
  const [fieldWidth, valueWidth] = columnWidths(rows, style.width);
  const [head, ...body] = rows as [Row, ...Row[]];
  const text = drawFrame({
    head,
    rows: body.map(([field, value]) => [
      wrapText(field, fieldWidth, true).join('\n'),
      wrapText(value, valueWidth).join('\n'),
    ]),
    widths: [fieldWidth, valueWidth],
    colour: style.colour,
    highlighted: (row) => marks !== '' && row === body.length - 1,
  });
  return `${text}\n`;
}
