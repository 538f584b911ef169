// Dotted field paths: `--fields a,b.c` picking, and flattening nested records into dotted columns.
import { UsageError } from '../../core/errors.js';
import { textOf } from './text.js';

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

/** A record's own field: never one inherited from Object.prototype (`toString`, `constructor`, `__proto__`). */
export function ownField(record: unknown, key: string): unknown {
  return isPlainObject(record) && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets an own field, also `__proto__`, which a plain assignment would take as the object's prototype. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function valueAt(record: unknown, path: string): unknown {
  let node: unknown = record;
  for (const part of path.split('.')) {
    if (!isPlainObject(node) || !Object.hasOwn(node, part)) return undefined;
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
      const next = ownField(node, part);
      if (isPlainObject(next)) node = next;
      else {
        const created = {};
        setOwn(node, part, created);
        node = created;
      }
    }
    setOwn(node, last, valueAt(record, field) ?? null);
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
    setOwn(out, prefix || 'value', record);
    return out;
  }
  for (const [key, value] of Object.entries(record)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length > 0) flatten(value, path, out);
    else setOwn(out, path, value);
  }
  return out;
}

/** Which --fields paths no record has had so far: one warning at the end names them (most likely a typo). */
export class FieldsSeen {
  private readonly missing: Set<string>;

  constructor(fields: readonly string[]) {
    this.missing = new Set(fields);
  }

  see(record: unknown): this {
    for (const field of this.missing)
      if (valueAt(record, field) !== undefined || ownField(record, field) !== undefined)
        this.missing.delete(field);
    return this;
  }

  report(warn: ((line: string) => void) | undefined): void {
    if (this.missing.size === 0) return;
    const plural = this.missing.size > 1 ? 's' : '';
    warn?.(`warning: --fields: no record has ${[...this.missing].join(', ')}: check the name${plural}`);
  }
}

/** A cell's text: empty for null, JSON for arrays and objects (see textOf: no method of the value is called). */
export const cellText = textOf;
