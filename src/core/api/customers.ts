// Customers: the request that creates one (by `customers create` and its bulk run alike); `customers get` is the
// shared get-by-id (cli/resource-verbs.ts).
import type { ApiRequest } from '../http/client.js';
import { paths } from './resources.js';

/** The body is the customer as given: the CLI does not know the API's customer fields. */
export const createCustomerRequest = (body: Record<string, unknown>): ApiRequest => ({
  method: 'POST',
  path: paths.customers,
  body,
});
