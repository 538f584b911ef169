// Dotted field paths: `--fields a,b.c` picking, and flattening nested records into dotted columns.
import { UsageError } from '../../core/errors.js';

const FIELD = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

export function parseFields(text: string): string[] {
  const fields = text
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  if (fields.length === 0)
    throw new UsageError('--fields needs at least one field, e.g. --fields id,first_name');
  const bad = fields.find((f) => !FIELD.test(f));
  if (bad)
    throw new UsageError(
      `--fields: '${bad}' is not a field path (use names joined by dots, e.g. record_state.reason_code)`,
    );
  return fields;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function valueAt(record: unknown, path: string): unknown {
  let node: unknown = record;
  for (const part of path.split('.')) {
    if (!isPlainObject(node)) return undefined;
    node = node[part];
  }
  return node;
}

/** Keeps only the given paths, nested as they were: `b.c` gives `{"b":{"c":…}}`. Missing values become null. */
export function pickFields(record: unknown, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const parts = field.split('.');
    const last = parts.pop() as string;
    let node = out;
    for (const part of parts) {
      if (!isPlainObject(node[part])) node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    node[last] = valueAt(record, field) ?? null;
  }
  return out;
}

/** Nested objects become dotted keys; arrays and scalars stay values. */
export function flatten(
  record: unknown,
  prefix = '',
  out: Record<string, unknown> = {},
): Record<string, unknown> {
  if (!isPlainObject(record)) {
    out[prefix || 'value'] = record;
    return out;
  }
  for (const [key, value] of Object.entries(record)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length > 0) flatten(value, path, out);
    else out[path] = value;
  }
  return out;
}

/** Columns for csv/table: the given fields (objects expanded to their leaves), else every leaf of the sample. */
export function columnsFor(sample: unknown, fields: string[] | undefined): string[] {
  if (!fields) return Object.keys(flatten(sample));
  return fields.flatMap((field) => {
    const value = valueAt(sample, field);
    return isPlainObject(value) && Object.keys(value).length > 0
      ? Object.keys(flatten(value, field))
      : [field];
  });
}

/** A cell's text: empty for null, JSON for arrays and objects. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
