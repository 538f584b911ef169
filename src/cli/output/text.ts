// The one way a server value becomes text for people: any JSON value, whatever its keys, without calling a method of
// it (`String(x)` and template literals call an object's own `toString`/`valueOf`, which a server may set to 1).
import { exactJson } from '../../core/http/exact-numbers.js';

/**
 * Text of any value: strings as they are, numbers and booleans as written, null/undefined empty, arrays and objects
 * as JSON. Only primitives go through String(), which runs no code of the value.
 */
export function textOf(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? String(value) : ''; // past a double's range: JSON writes null, shown empty
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
      return value === null ? '' : jsonText(value);
    default:
      return ''; // undefined; functions and symbols never come from JSON
  }
}

/** JSON.stringify calls no method of parsed data (a `toJSON` key from JSON is never a function); too deep: a mark. */
function jsonText(value: object): string {
  try {
    return exactJson(value);
  } catch {
    return Array.isArray(value) ? '[…]' : '{…}';
  }
}

/** Text joined with a separator, empty parts left out (`[first, last]` → `Ada Lovelace`). */
export function joinText(values: readonly unknown[], separator = ' '): string {
  return values
    .map(textOf)
    .filter((part) => part !== '')
    .join(separator);
}

/** At most `max` characters: longer text is cut with `…`, never in the middle of a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(1, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff && end > 1) end--;
  return `${text.slice(0, end)}…`;
}

/** `1 record`, `2 records`: a count with its noun, singular or plural. */
export const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
