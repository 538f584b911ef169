// Typed endpoint functions: the only place that knows the API's paths.
import { NetworkError } from '../errors.js';
import type { ApiRequest, ApiResponse, HttpClient } from '../http/client.js';
import type { Account, DataEnvelope } from './types.js';

export const paths = {
  account: '/v1/account',
  customers: '/v1/customers',
  customer: (id: number) => `/v1/customers/${id}`,
} as const;

/** The `data` of a success envelope; anything else is an unexpected answer. */
export function dataOf<T>(response: ApiResponse, what: string): T {
  const body = response.json<DataEnvelope<T>>();
  if (typeof body !== 'object' || body === null || !('data' in body)) {
    throw new NetworkError(`unexpected response for ${what}: no 'data' in the body`);
  }
  return body.data;
}

export const getAccountRequest = (): ApiRequest => ({ method: 'GET', path: paths.account });
export const getCustomerRequest = (id: number): ApiRequest => ({ method: 'GET', path: paths.customer(id) });
export const createCustomerRequest = (body: Record<string, unknown>): ApiRequest => ({
  method: 'POST',
  path: paths.customers,
  body,
});

export async function getAccount(client: HttpClient): Promise<Account> {
  return dataOf<Account>(await client.request(getAccountRequest()), 'the account');
}
