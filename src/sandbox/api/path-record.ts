// The record a route's path names by id: a malformed id is as missing as an unknown one, and both get the route's 404.
import { ApiError, type ApiResponse } from '../http/responses.js';
import { parsePositiveInteger } from './field-errors.js';
import type { Owned } from '../data/store.js';
import type { TenantContext, UserContext } from './route.js';

/** Looks up the `{param}` segment (`{id}` by default) with `find`, or throws `notFound`. */
export function recordInPath<T>(
  ctx: UserContext,
  find: (id: number) => T | undefined,
  notFound: ApiResponse,
  param = 'id',
): T {
  const id = parsePositiveInteger(ctx.params[param] ?? '');
  const record = id === undefined ? undefined : find(id);
  if (record === undefined) throw new ApiError(notFound);
  return record;
}

/** The current tenant's record in one of the store's tables whose id the path names, or `notFound`. */
export function tenantRecordInPath<T extends Owned>(
  ctx: TenantContext,
  records: readonly T[],
  notFound: ApiResponse,
): T {
  return recordInPath(ctx, (id) => ctx.store.owned(records, ctx.tenant.id, id), notFound);
}
