// Customers: the request that creates one (by `customers create` and its bulk run alike), and reading one (for
// `erasure create`'s confirmation); `customers get` is the shared get-by-id (cli/resource-verbs.ts).
import type { ApiRequest, HttpClient } from '../http/client.js';
import { paths, recordOf } from './resources.js';

/** The body is the customer as given: the CLI does not know the API's customer fields. */
export const createCustomerRequest = (body: Record<string, unknown>): ApiRequest => ({
  method: 'POST',
  path: paths.customers,
  body,
});

/** GET /v1/customers/{id}: the customer as this user may see them (masked or not); its fields as the server sent them. */
export async function getCustomer(client: HttpClient, id: number): Promise<unknown> {
  return recordOf<unknown>(
    await client.request({ method: 'GET', path: paths.customer(id) }),
    `customer ${id}`,
  );
}
