// What each bulk command sends for one record: the fields it requires, the ones that are whole numbers (CSV gives
// text), and the request built from the record.
import { paths } from '../api/resources.js';
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
    request: (record) => ({ method: 'POST', path: paths.customers, body: record }),
  },
  leadNotes: {
    command: 'leads notes add',
    required: ['lead_id', 'content'],
    ids: ['lead_id', 'user_id'],
    request: ({ lead_id, content, user_id }) => ({
      method: 'POST',
      path: paths.leadNotes(lead_id as number),
      body: user_id === undefined ? { content } : { content, user_id },
    }),
  },
  erasure: {
    command: 'erasure create',
    required: ['customer_id'],
    ids: ['customer_id'],
    request: ({ customer_id, request_reason }) => ({
      method: 'POST',
      path: paths.erasureRequests,
      body: { customer_id, request_reason: request_reason ?? null },
    }),
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
      return { problem: `${field} must be a positive whole number, got ${JSON.stringify(value)}` };
    out[field] = number;
  }
  for (const field of schema.required) {
    const value = out[field];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
      return { problem: `missing required field ${field}` };
  }
  return { record: out };
}
