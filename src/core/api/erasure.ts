// Data erasure requests: statuses, the actions their `state_allows` flags gate, and reading one request.
import { ConflictError, NetworkError } from '../errors.js';
import type { ApiRequest, HttpClient } from '../http/client.js';
import type { ErasureAction, ErasureStatus } from './erasure-states.js';
import { paths, recordOf } from './resources.js';

export {
  ERASURE_ACTIONS,
  ERASURE_SORT_FIELDS,
  ERASURE_STATUSES,
  type ErasureAction,
  type ErasureStatus,
} from './erasure-states.js';

/** Where a request stops moving: the end of the normal path and the three side exits. */
export const TERMINAL_STATUSES: readonly ErasureStatus[] = ['completed', 'expired', 'cancelled', 'failed'];

export interface ErasureRequest {
  id: number;
  status: string;
  customer_id: number | null;
  state_allows: Record<ErasureAction, boolean>;
  [field: string]: unknown;
}

/** A new request as the API names its fields; request_reason goes as given (a bulk record may hold other types). */
export interface NewErasureRequest {
  customer_id: number;
  request_reason?: unknown;
}

/** POST /v1/data-erasure-requests; request_reason is null when not given. */
export const createErasureRequest = ({ customer_id, request_reason }: NewErasureRequest): ApiRequest => ({
  method: 'POST',
  path: paths.erasureRequests,
  body: { customer_id, request_reason: request_reason ?? null },
});

export async function getErasureRequest(client: HttpClient, id: number): Promise<ErasureRequest> {
  const request = recordOf<ErasureRequest>(
    await client.request({ method: 'GET', path: paths.erasureRequest(id) }),
    `erasure request ${id}`,
  );
  if (
    typeof request?.status !== 'string' ||
    typeof request.state_allows !== 'object' ||
    !request.state_allows
  ) {
    throw new NetworkError(`unexpected response for erasure request ${id}: no status or state_allows`);
  }
  return request;
}

/** Refuses (exit 6, nothing sent) an action the request's state does not allow. */
export function checkAllowed(request: ErasureRequest, action: ErasureAction): void {
  if (request.state_allows[action] === true) return;
  const status = request.status.replace(/_/g, ' ');
  throw new ConflictError(
    // The id as the server sent it only when it is a number: a template literal would run an object's toString.
    `${action} is not allowed while the request's status is ${status} (erasure request ${typeof request.id === 'number' ? request.id : '?'})`,
  );
}
