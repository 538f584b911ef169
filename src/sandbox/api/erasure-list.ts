// GET /v1/data-erasure-requests: filters (status, created_at window), a firm sort and pagination.
import { ERASURE_SORT_FIELDS, ERASURE_STATUSES } from '../../core/api/erasure-states.js';
import type { ErasureRequestRecord } from '../data/erasure-types.js';
import type { FieldErrors } from '../http/responses.js';
import { erasureView } from './erasure-view.js';
import { throwIfInvalid } from './field-errors.js';
import { paginate, readPageRequest } from './pagination.js';
import { readChoice, readDateWindow, within } from './query-filters.js';
import type { TenantContext } from './route.js';

type SortField = (typeof ERASURE_SORT_FIELDS)[number];

/** Default sort (not shown by the API): newest first. */
export function listErasureRequests(ctx: TenantContext) {
  const errors: FieldErrors = {};
  const pageRequest = readPageRequest(ctx.query, errors);
  const status = readChoice(ctx.query, 'status', ERASURE_STATUSES, errors);
  const { from, to } = readDateWindow(ctx.query, ['created_at_from', 'created_at_to'], errors);
  const sortBy = readChoice(ctx.query, 'sort_by', ERASURE_SORT_FIELDS, errors) ?? 'created_at';
  const sortOrder = readChoice(ctx.query, 'sort_order', ['asc', 'desc'] as const, errors) ?? 'desc';
  throwIfInvalid(errors);

  const direction = sortOrder === 'asc' ? 1 : -1;
  const matching = ctx.store.erasures
    .ofTenant(ctx.tenant.id)
    .filter((record) => status === undefined || record.status === status)
    .filter((record) => within(Date.parse(record.created_at), from, to))
    .sort((a, b) => compareBy(a, b, sortBy, direction))
    .map((record) => erasureView(ctx, record));
  return { status: 200, body: paginate(matching, pageRequest, ctx.apiUrl('/v1/data-erasure-requests')) };
}

/** Like MySQL: nulls first ascending, last descending; ties fall back to id in the same direction. */
function compareBy(a: ErasureRequestRecord, b: ErasureRequestRecord, field: SortField, direction: number) {
  const left = a[field];
  const right = b[field];
  if (left !== right) {
    if (left === null) return -direction;
    if (right === null) return direction;
    return left < right ? -direction : direction;
  }
  return direction * (a.id - b.id);
}
