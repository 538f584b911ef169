// Reads list filters from the query string; each bad value becomes a Laravel-style field error (422).
import type { FieldErrors } from '../http/responses.js';
import { parseCarbonDate } from './carbon-date.js';
import { addFieldError } from './field-errors.js';

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
 * An optional date or date-time as epoch milliseconds, read as Laravel reads it (carbon-date.ts): a bare date is that
 * day at 00:00:00 UTC for either bound, so `to=2026-01-31` ends where that day begins, as against the real API.
 */
export function readDateTime(query: URLSearchParams, field: string, errors: FieldErrors): number | undefined {
  const value = (query.get(field) ?? '').trim();
  if (value === '') return undefined;
  const ms = parseCarbonDate(value);
  if (ms === undefined) addFieldError(errors, field, `The ${label(field)} field must be a valid date.`);
  return ms;
}

/** An optional window read from two date fields (`from` before `to`), its bounds as epoch milliseconds. */
export function readDateWindow(
  query: URLSearchParams,
  fields: [from: string, to: string],
  errors: FieldErrors,
): { from: number | undefined; to: number | undefined } {
  const from = readDateTime(query, fields[0], errors);
  const to = readDateTime(query, fields[1], errors);
  checkOrder(from, to, fields, errors);
  return { from, to };
}

/** Records that `to` is not before `from`, once both parsed. */
function checkOrder(
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
