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

/** An item of a list of objects on one sub-row: its filled fields, `name: value` apart by ` · `. */
function itemText(item: object, times: HumanTimes): string {
  return Object.entries(flatten(item))
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([field, value]) => `${field}: ${valueText(value, times)}`)
    .join(' · ');
}

function recordRows(record: unknown, times: HumanTimes): Row[] {
  const rows: Row[] = [];
  for (const [field, value] of Object.entries(flatten(record))) {
    if (Array.isArray(value) && value.length > 0 && value.every(isPlainObject)) {
      rows.push([field, '']);
      value.forEach((item: object, index) => rows.push([`  ${index + 1}`, itemText(item, times)]));
    } else rows.push([field, valueText(value, times)]);
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
