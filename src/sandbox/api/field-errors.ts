// Collects per-field validation messages and turns them into one Laravel-style 422.
import { ApiError, type FieldErrors, validationError } from '../http/responses.js';

export function addFieldError(errors: FieldErrors, field: string, message: string): void {
  const messages = errors[field] ?? [];
  messages.push(message);
  errors[field] = messages;
}

export function throwIfInvalid(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw new ApiError(validationError(errors));
}

/** A strictly positive safe integer written in decimal, else undefined. */
export function parsePositiveInteger(value: string): number | undefined {
  if (!/^\d+$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) && number >= 1 ? number : undefined;
}
