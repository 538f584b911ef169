// Validates a customer create body the way the API would, listing every failing field in one 422.
import type { FieldErrors } from '../http/responses.js';
import { addFieldError, throwIfInvalid } from './field-errors.js';
import { isObject } from './json-input.js';

export interface CustomerInput {
  first_name: string;
  last_name: string;
  email: string | null;
  phone_number: string | null;
  date_of_birth: string | null;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_PATTERN = /^[0-9 +-]+$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export function validateCustomerInput(body: unknown, today: string): CustomerInput {
  const input = isObject(body) ? body : {};
  const errors: FieldErrors = {};
  const firstName = requiredName(input, 'first_name', 'first name', errors);
  const lastName = requiredName(input, 'last_name', 'last name', errors);
  const email = optionalString(input, 'email', 'email', errors);
  if (email !== null && (!EMAIL_PATTERN.test(email) || email.length > 255)) {
    addFieldError(errors, 'email', 'The email field must be a valid email address.');
  }
  const phone = optionalString(input, 'phone_number', 'phone number', errors);
  if (phone !== null) {
    if (!PHONE_PATTERN.test(phone))
      addFieldError(errors, 'phone_number', 'The phone number field format is invalid.');
    if (phone.length < 7 || phone.length > 20) {
      addFieldError(errors, 'phone_number', 'The phone number field must be between 7 and 20 characters.');
    }
  }
  const birthDate = optionalString(input, 'date_of_birth', 'date of birth', errors);
  if (birthDate !== null) {
    if (!isCalendarDate(birthDate)) {
      addFieldError(errors, 'date_of_birth', 'The date of birth field must match the format Y-m-d.');
    } else if (birthDate > today) {
      addFieldError(
        errors,
        'date_of_birth',
        'The date of birth field must be a date before or equal to today.',
      );
    }
  }
  throwIfInvalid(errors);
  return {
    first_name: firstName ?? '',
    last_name: lastName ?? '',
    email,
    phone_number: phone,
    date_of_birth: birthDate,
  };
}

/** Trimmed like Laravel's TrimStrings; an empty string counts as missing. */
function readString(input: Record<string, unknown>, field: string): unknown {
  const value = input[field];
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function requiredName(input: Record<string, unknown>, field: string, label: string, errors: FieldErrors) {
  const value = readString(input, field);
  if (value === undefined || value === null) {
    addFieldError(errors, field, `The ${label} field is required.`);
    return undefined;
  }
  if (typeof value !== 'string') {
    addFieldError(errors, field, `The ${label} field must be a string.`);
    return undefined;
  }
  if (value.length > 100)
    addFieldError(errors, field, `The ${label} field must not be greater than 100 characters.`);
  return value;
}

function optionalString(input: Record<string, unknown>, field: string, label: string, errors: FieldErrors) {
  const value = readString(input, field);
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    addFieldError(errors, field, `The ${label} field must be a string.`);
    return null;
  }
  return value;
}

function isCalendarDate(text: string): boolean {
  const match = DATE_PATTERN.exec(text);
  if (match === null) return false;
  const [, year, month, day] = match.map(Number);
  const date = new Date(Date.UTC(year ?? 0, (month ?? 0) - 1, day ?? 0));
  return date.toISOString().slice(0, 10) === text;
}
