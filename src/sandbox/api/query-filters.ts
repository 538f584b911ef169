// Reads list filters from the query string; each bad value becomes a Laravel-style field error (422).
import type { FieldErrors } from '../http/responses.js';
import { addFieldError } from './field-errors.js';

const DAY_MS = 24 * 60 * 60 * 1000;
// A date, or a date-time with optional seconds, fraction and offset. A space may stand for the offset's '+',
// which an unencoded query string turns into one.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+\- ]\d{2}:?\d{2})?)?$/;

/** 'created_at_from' → 'created at from', as Laravel names fields in its messages. */
const label = (field: string) => field.replaceAll('_', ' ');

/** An optional value from a fixed set; empty counts as absent. */
export function readChoice<T extends string>(
  query: URLSearchParams,
  field: string,
  choices: readonly T[],
  errors: FieldErrors,
): T | undefined {
  const value = query.get(field) ?? '';
  if (value === '') return undefined;
  if ((choices as readonly string[]).includes(value)) return value as T;
  addFieldError(errors, field, `The selected ${label(field)} is invalid.`);
  return undefined;
}

/**
 * An optional ISO 8601 date or date-time as epoch milliseconds (UTC unless an offset is given). A bare date used
 * as an upper bound means the end of that day.
 */
export function readDateTime(
  query: URLSearchParams,
  field: string,
  errors: FieldErrors,
  options: { upperBound?: boolean } = {},
): number | undefined {
  const value = (query.get(field) ?? '').trim();
  if (value === '') return undefined;
  const ms = parseDateTime(value, options.upperBound === true);
  if (ms === undefined) addFieldError(errors, field, `The ${label(field)} field must be a valid date.`);
  return ms;
}

/** Records that `to` is not before `from`, once both parsed. */
export function checkOrder(
  from: number | undefined,
  to: number | undefined,
  fields: [string, string],
  errors: FieldErrors,
): void {
  if (from === undefined || to === undefined || to >= from) return;
  addFieldError(
    errors,
    fields[1],
    `The ${label(fields[1])} field must be a date after or equal to ${label(fields[0])}.`,
  );
}

/** Whether `ms` lies in the optional closed window [from, to]. */
export function within(ms: number, from: number | undefined, to: number | undefined): boolean {
  return (from === undefined || ms >= from) && (to === undefined || ms <= to);
}

/** An optional whole number >= 0. */
export function readWholeNumber(
  query: URLSearchParams,
  field: string,
  errors: FieldErrors,
): number | undefined {
  const value = query.get(field) ?? '';
  if (value === '') return undefined;
  if (/^\d+$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
  addFieldError(errors, field, `The ${label(field)} field must be an integer.`);
  return undefined;
}

export function parseDateTime(text: string, endOfDay: boolean): number | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [, year = '', month = '', day = '', hour, minute, second, fraction, zone] = match;
  const dayMs = Date.UTC(Number(year), Number(month) - 1, Number(day));
  if (new Date(dayMs).toISOString().slice(0, 10) !== `${year}-${month}-${day}`) return undefined;
  if (hour === undefined) return dayMs + (endOfDay ? DAY_MS - 1 : 0);
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59) return undefined;
  const millis = Math.floor(Number(`0.${fraction ?? '0'}`) * 1000);
  const localMs = dayMs + ((Number(hour) * 60 + Number(minute)) * 60 + Number(second ?? 0)) * 1000 + millis;
  if (zone === undefined || zone === 'Z') return localMs;
  const digits = zone.slice(1).replace(':', '');
  const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  if (Number(digits.slice(2)) > 59) return undefined;
  return localMs - (zone.startsWith('-') ? -1 : 1) * offsetMinutes * 60_000;
}
