// What each bulk command sends for one record: the fields it requires, the ones that are whole numbers (CSV gives
// text), and the request, built by the same endpoint function as the command's single form.
import { createCustomerRequest } from '../api/customers.js';
import { createErasureRequest, type NewErasureRequest } from '../api/erasure.js';
import { addLeadNoteRequest, type NewLeadNote } from '../api/leads.js';
import type { ApiRequest } from '../http/client.js';

export interface BulkSchema {
  /** As users type it, e.g. `leads notes add`. */
  command: string;
  required: readonly string[];
  /** Positive whole numbers; CSV text such as "42" becomes 42. */
  ids: readonly string[];
  request(record: Record<string, unknown>): ApiRequest;
}

export const BULK_SCHEMAS = {
  customers: {
    command: 'customers create',
    required: [],
    ids: [],
    request: (record) => createCustomerRequest(record),
  },
  leadNotes: {
    command: 'leads notes add',
    required: ['lead_id', 'content'],
    ids: ['lead_id', 'user_id'],
    // checkRecord has made lead_id a number and checked that it is there.
    request: (record) => addLeadNoteRequest(record as unknown as NewLeadNote),
  },
  erasure: {
    command: 'erasure create',
    required: ['customer_id'],
    ids: ['customer_id'],
    // checkRecord has made customer_id a number and checked that it is there.
    request: (record) => createErasureRequest(record as unknown as NewErasureRequest),
  },
} satisfies Record<string, BulkSchema>;

/** The record checked and typed for its schema, or the problem to report with its line. */
export function checkRecord(
  schema: BulkSchema,
  record: Record<string, unknown>,
): { record: Record<string, unknown> } | { problem: string } {
  const out: Record<string, unknown> = { ...record };
  for (const field of schema.ids) {
    const value = out[field];
    if (value === undefined || value === null || value === '') {
      delete out[field];
      continue;
    }
    const number = typeof value === 'string' && /^\s*[1-9]\d*\s*$/.test(value) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1)
      return { problem: `${field} must be a positive whole number, got ${shortJson(value)}` };
    out[field] = number;
  }
  for (const field of schema.required) {
    const value = out[field];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
      return { problem: `missing required field ${field}` };
  }
  return { record: out };
}

/** A value as JSON for a message, cut to a few words: a record may hold a megabyte in one field. */
function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= 60 ? text : `${text.slice(0, 60)}… (${text.length} characters)`;
}
