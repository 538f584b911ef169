// Checks for argument values, each failing with one clear usage line.
import { UsageError } from '../core/errors.js';
import { isPositiveInteger } from '../core/plain-text.js';

export function parseWholeNumber(
  value: string,
  name: string,
  range: { min?: number; max?: number } = {},
): number {
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = range;
  const bounded = max !== Number.MAX_SAFE_INTEGER;
  // Not a whole number at all (-1, 1.5, abc): the range it must be in is said with it, not a bound it does not have.
  if (!/^\d+$/.test(value.trim())) {
    const wanted = bounded
      ? `a whole number between ${min} and ${max}`
      : min > 0
        ? `a whole number of at least ${min}`
        : 'a whole number (0 or more)';
    throw new UsageError(`${name} must be ${wanted}, got '${value}'`);
  }
  if (!Number.isSafeInteger(Number(value)))
    throw new UsageError(
      bounded
        ? `${name} must be between ${min} and ${max}, got ${value.trim()}`
        : `${name} must be a whole number up to ${Number.MAX_SAFE_INTEGER}, got '${value}'`,
    );
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
  if (!isPositiveInteger(value.trim()) || !Number.isSafeInteger(Number(value)))
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

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](?:0\d|1[0-4]):?[0-5]\d)?)?$/;

/** Which end of a window a date filter is: a bare day stands for its first instant, or for its last. */
export type DateBound = 'start' | 'end';

/**
 * An ISO 8601 day or date-time (2026-01-31, 2026-01-31T08:00, 2026-01-31T08:00:00Z, 2026-01-31T08:00+02:00), checked
 * for real, as the full UTC date-time to send. A day is the whole day in the local time zone (TZ), or in UTC with
 * `utc` (--utc, as the run shows times): its start for the `start` bound, its last microsecond for the `end` bound;
 * a date-time without an offset is in that zone too; one with an offset is sent as typed.
 */
export function parseDateBound(value: string, name: string, bound: DateBound, utc = false): string {
  const text = value.trim();
  const match = ISO_DATE_TIME.exec(text);
  const [, y, mo, d, h, mi, s = '00', fraction, zone] = match ?? [];
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  const real =
    match !== null &&
    day.getUTCFullYear() === Number(y) &&
    day.getUTCMonth() === Number(mo) - 1 &&
    day.getUTCDate() === Number(d) &&
    Number(h ?? 0) < 24 &&
    Number(mi ?? 0) < 60 &&
    Number(s) < 60;
  if (!real)
    throw new UsageError(
      `${name} must be an ISO 8601 date-time such as 2026-01-31T08:00:00Z or a day such as 2026-01-31, got '${value}'`,
    );
  if (zone !== undefined) return text.replace(' ', 'T');
  // new Date(y, m, d) is local midnight, or the first instant after it where the zone skips midnight.
  const at = (day: number, hour = 0, minute = 0, second = 0) =>
    utc
      ? Date.UTC(Number(y), Number(mo) - 1, day, hour, minute, second)
      : new Date(Number(y), Number(mo) - 1, day, hour, minute, second).getTime();
  if (h === undefined) {
    if (bound === 'start') return utcText(at(Number(d)));
    return utcText(at(Number(d) + 1) - 1000, '999999');
  }
  return utcText(at(Number(d), Number(h), Number(mi), Number(s)), fraction?.slice(0, 6));
}

/** `2026-01-30T23:00:00Z`, or with a fraction of a second (`…:59.999999Z`), for a whole-second instant. */
function utcText(ms: number, fraction?: string): string {
  return `${new Date(ms).toISOString().slice(0, 19)}${fraction ? `.${fraction}` : ''}Z`;
}

/** A checked ISO 8601 value as epoch milliseconds, reading a value without an offset as UTC (for comparisons). */
export function dateTimeMs(value: string): number {
  const text = value.trim().replace(' ', 'T');
  if (text.length === 10) return Date.parse(`${text}T00:00:00Z`);
  const offset = /([+-])(\d{2}):?(\d{2})$/.exec(text);
  if (offset) return Date.parse(`${text.slice(0, offset.index)}${offset[1]}${offset[2]}:${offset[3]}`);
  return Date.parse(text.endsWith('Z') ? text : `${text}Z`);
}
