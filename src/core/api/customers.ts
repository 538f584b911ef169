// Customers: the requests that read one customer and create one (by `customers get`, `customers create` and its bulk
// run alike).
import type { ApiRequest } from '../http/client.js';
import { paths } from './resources.js';

export const getCustomerRequest = (id: number): ApiRequest => ({ method: 'GET', path: paths.customer(id) });

/** The body is the customer as given: the CLI does not know the API's customer fields. */
export const createCustomerRequest = (body: Record<string, unknown>): ApiRequest => ({
  method: 'POST',
  path: paths.customers,
  body,
});
