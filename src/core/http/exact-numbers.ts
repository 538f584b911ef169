// Integers JSON.parse cannot hold (an id past 2^53, a number past the double range), which it rounds: an answer that
// holds one is read again from its text with every such integer exact (a BigInt), and each of its objects and arrays
// paired with its exact twin. The core goes on with the parsed numbers; what is shown takes the twin (exactTwin), so
// JSON, CSV, tables and --jq print the server's value. Decimals keep the 17 digits a double holds.
import type * as LosslessJson from 'lossless-json';
import { lazyRequire } from '../lazy-require.js';

const losslessJson = lazyRequire<typeof LosslessJson>('lossless-json');

/** Longest integer kept exact, in digits: past any real id, and no bigger than a string of the answer's size. */
const MAX_EXACT_DIGITS = 1000;

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

/** A number token as the exact reader keeps it: a Number, unless that would round an integer (then a BigInt). */
function exactNumber(token: string): number | bigint {
  const value = Number(token);
  return roundedInteger(value) ? (exactInteger(token) ?? value) : value;
}

/** The integer a token writes (`12345678901234567890`, `1.5e300`), or undefined for a fraction or a huge one. */
export function exactInteger(token: string): bigint | undefined {
  const parts = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(token);
  if (!parts) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = parts;
  const digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, '');
  const shift = Number(exponent) - fraction.length;
  if (shift < 0) {
    // Only zeros may be shifted out: 1.50e1 is 15, 1.55e1 is no integer.
    if (!/^0+$/.test(digits.slice(shift))) return undefined;
    return BigInt(`${sign}${digits.slice(0, shift) || '0'}`);
  }
  if (digits.length + shift > MAX_EXACT_DIGITS) return undefined;
  return BigInt(`${sign}${digits}`) * 10n ** BigInt(shift);
}

/** JSON text of a value that may hold BigInts (an exact twin): JSON.stringify's, with big integers written whole. */
export function exactJson(value: unknown, space?: number): string {
  if (!paired) return JSON.stringify(value, null, space) ?? '';
  return losslessJson().stringify(value, undefined, space) ?? '';
}
