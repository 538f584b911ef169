// Integers JSON.parse cannot hold (an id past 2^53), which it rounds: an answer that holds one is read again from its
// text with every such integer exact (a BigInt of its digits), and each of its objects and arrays paired with its
// exact twin. The core goes on with the parsed numbers (ids compare by their twin's: idOf); what is shown takes the
// twin (exactTwin), so JSON, CSV, tables and --jq print the server's digits. Decimals keep the 17 digits a double
// holds, and a number in exponent form the value a double gives it.
import type * as LosslessJson from 'lossless-json';
import { lazyRequire } from '../lazy-require.js';

const losslessJson = lazyRequire<typeof LosslessJson>('lossless-json');

const twins = new WeakMap<object, object>();
let paired = false;

/** Whether a parsed number may stand for another the text held: an integer past 2^53, or past the double range. */
export const roundedInteger = (value: number): boolean =>
  !Number.isSafeInteger(value) && (Number.isInteger(value) || !Number.isFinite(value));

/** The exact twin of a parsed object or array, if its answer held a rounded integer; else the value itself. */
export function exactTwin<T>(value: T): T {
  if (!paired || typeof value !== 'object' || value === null) return value;
  return (twins.get(value) as T | undefined) ?? value;
}

/** Whether some answer of this run had exact twins made (what is printed may then hold a BigInt). */
export const anyExact = (): boolean => paired;

/**
 * Reads `text` again with its rounded integers exact and pairs each object and array of `parsed` (what JSON.parse
 * made of the same text) with its twin. Text the exact reader refuses (a key given twice with two values, which
 * JSON.parse takes the last of) keeps the parsed numbers.
 */
export function pairExact(parsed: unknown, text: string): void {
  let exact: unknown;
  try {
    exact = losslessJson().parse(text, undefined, exactNumber);
  } catch {
    return;
  }
  pair(parsed, exact);
  paired = true;
}

/** Pairs each object and array of `parsed` with its twin in `exact`; a loop, not recursion (any depth). */
function pair(parsed: unknown, exact: unknown): void {
  const stack: [unknown, unknown][] = [[parsed, exact]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [from, to] = next;
    if (typeof from !== 'object' || from === null || typeof to !== 'object' || to === null) continue;
    twins.set(from, to);
    if (Array.isArray(from)) {
      if (Array.isArray(to)) from.forEach((item, index) => stack.push([item, to[index]]));
      continue;
    }
    const twin = to as Record<string, unknown>;
    for (const key of Object.keys(from)) stack.push([(from as Record<string, unknown>)[key], twin[key]]);
  }
}

/** Whether a parsed value holds an integer JSON.parse rounded; a loop, not recursion (any depth). */
function holdsRounded(value: unknown): boolean {
  const stack = [value];
  for (let next = stack.pop(); stack.length > 0 || next !== undefined; next = stack.pop()) {
    if (typeof next === 'number' && roundedInteger(next)) return true;
    if (typeof next === 'object' && next !== null) for (const item of Object.values(next)) stack.push(item);
  }
  return false;
}

/** JSON text parsed for printing whole (`clinic api`): the exact twin when JSON.parse rounds an integer of it. */
export function parseExact(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!holdsRounded(value)) return value;
  pairExact(value, text);
  return exactTwin(value);
}

/**
 * A number token as the exact reader keeps it: a Number, unless it is an integer written in plain digits that the
 * Number would round (then a BigInt of those digits: never longer than the token). A token in exponent form keeps
 * the value a double gives it (`1.5e300` prints so; past the double range, as JSON.stringify writes it: null).
 */
function exactNumber(token: string): number | bigint {
  const value = Number(token);
  return roundedInteger(value) && /^-?\d+$/.test(token) ? BigInt(token) : value;
}

/**
 * JSON text of a value that may hold BigInts (an exact twin): JSON.stringify's, and lossless-json's (big integers
 * written whole) for a value JSON.stringify refuses for its BigInt.
 */
export function exactJson(value: unknown, space?: number): string {
  try {
    return JSON.stringify(value, null, space) ?? '';
  } catch (error) {
    if (!paired || !(error instanceof TypeError)) throw error;
    return losslessJson().stringify(value, undefined, space) ?? '';
  }
}

/**
 * A record's id, to tell records apart (pages that repeat, an export's repeats): its twin's digits, as text, for an
 * id JSON.parse rounded (ids near 9e18 would all look alike); undefined when it has none to compare.
 */
export function idOf(record: unknown): number | string | undefined {
  const id = typeof record === 'object' && record !== null ? (record as { id?: unknown }).id : undefined;
  if (typeof id === 'string' || (typeof id === 'number' && (Number.isSafeInteger(id) || !paired))) return id;
  if (typeof id !== 'number') return undefined;
  const exact = (exactTwin(record) as { id?: unknown }).id;
  return typeof exact === 'bigint' ? exact.toString() : id;
}
