// Typed endpoint functions: the only place that knows the API's paths.
import { NetworkError } from '../errors.js';
import type { ApiRequest, ApiResponse, HttpClient } from '../http/client.js';
import type { Account, DataEnvelope } from './types.js';

/** Paths of the API; those marked (assumed) are not shown in the API document. */
export const paths = {
  account: '/v1/account',
  customers: '/v1/customers',
  customer: (id: number) => `/v1/customers/${id}`,
  user: (id: number) => `/v1/users/${id}`,
  appointments: '/v1/appointments',
  channels: '/v1/channels',
  leadNotes: (leadId: number) => `/v1/leads/${leadId}/notes`,
  messages: (conversationId: number) => `/v1/conversations/${conversationId}/messages`,
  message: (conversationId: number, messageId: number) =>
    `/v1/conversations/${conversationId}/messages/${messageId}`,
  voice: (conversationId: number) => `/v1/conversations/${conversationId}/messages/voice`,
  agent: (conversationId: number) => `/v1/conversations/${conversationId}/agent`,
  agentSwitch: (conversationId: number, on: boolean) =>
    `/v1/conversations/${conversationId}/agent/${on ? 'enable' : 'disable'}`,
  formTemplate: (id: number) => `/v1/form-templates/${id}`,
  announcement: (id: number) => `/v1/announcements/${id}`,
  aiReportPdf: (id: number) => `/v1/ai-reports/${id}/pdf`,
  stockDeduct: (saleId: number) => `/v1/sales/${saleId}/stock-deduct`,
  transactionTypes: '/v1/account-transaction-types',
  erasureRequests: '/v1/data-erasure-requests',
  /** (assumed) */
  erasureRequest: (id: number) => `/v1/data-erasure-requests/${id}`,
  /** (assumed) */
  erasureAction: (id: number, action: 'resend' | 'cancel' | 'retry') =>
    `/v1/data-erasure-requests/${id}/${action}`,
  /** (assumed) */
  erasureCertificate: (id: number) => `/v1/data-erasure-requests/${id}/certificate`,
} as const;

/** The `data` of a success envelope; anything else is an unexpected answer. */
export function dataOf<T>(response: ApiResponse, what: string): T {
  const body = response.json<DataEnvelope<T>>();
  if (typeof body !== 'object' || body === null || !('data' in body)) {
    throw new NetworkError(`unexpected response for ${what}: no 'data' in the body`);
  }
  return body.data;
}

/** The `data` of a success envelope that answers with one record: an object, not null, a list or a value. */
export function recordOf<T>(response: ApiResponse, what: string): T {
  const data = dataOf<unknown>(response, what);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    const found = data === null ? 'null' : Array.isArray(data) ? 'a list' : `a ${typeof data}`;
    throw new NetworkError(`unexpected response for ${what}: 'data' is ${found}, not a record`);
  }
  return data as T;
}

export const getAccountRequest = (): ApiRequest => ({ method: 'GET', path: paths.account });

export async function getAccount(client: HttpClient): Promise<Account> {
  return recordOf<Account>(await client.request(getAccountRequest()), 'the account');
}
