// Checks for argument values, each failing with one clear usage line.
import { UsageError } from '../core/errors.js';

export function parseWholeNumber(
  value: string,
  name: string,
  range: { min?: number; max?: number } = {},
): number {
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = range;
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`${name} must be a whole number, got '${value}'`);
  const n = Number(value);
  if (n < min || n > max) {
    throw new UsageError(
      max === Number.MAX_SAFE_INTEGER
        ? `${name} must be at least ${min}, got ${n}`
        : `${name} must be between ${min} and ${max}, got ${n}`,
    );
  }
  return n;
}

/** A resource id: a positive whole number. */
export function parseId(value: string, name = 'ID'): number {
  if (!/^[1-9]\d*$/.test(value.trim()))
    throw new UsageError(`${name} must be a positive whole number, got '${value}'`);
  return Number(value);
}

/** `key=value` pairs, e.g. from repeated --filter. */
export function parsePairs(values: string[], name: string): [string, string][] {
  return values.map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`${name} expects key=value, got '${pair}'`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  });
}
