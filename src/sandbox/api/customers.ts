// Customer routes: paginated list with search and sort, read by id, and create.
import { apiTimestamp, isoDate } from '../data/time.js';
import type { CustomerRecord } from '../data/types.js';
import { type FieldErrors, resourceNotFound } from '../http/responses.js';
import { validateCustomerInput } from './customer-input.js';
import { type CustomerView, customerView } from './customer-view.js';
import { addFieldError, throwIfInvalid } from './field-errors.js';
import { paginate, readPageRequest } from './pagination.js';
import { recordInPath } from './path-record.js';
import { viewerOf } from './related.js';
import { ok, type Route, type TenantContext, tenantRoute } from './route.js';

const SORT_FIELDS = ['id', 'created_at', 'last_name'] as const;
type SortField = (typeof SORT_FIELDS)[number];

export const customerRoutes: Route[] = [
  tenantRoute('GET', '/v1/customers', 'customers.read', listCustomers),
  tenantRoute('GET', '/v1/customers/{id}', 'customers.read', getCustomer),
  tenantRoute('POST', '/v1/customers', 'customers.write', createCustomer),
];

function listCustomers(ctx: TenantContext) {
  const errors: FieldErrors = {};
  const pageRequest = readPageRequest(ctx.query, errors);
  const sortBy = ctx.query.get('sort_by') || 'id';
  const sortOrder = ctx.query.get('sort_order') || 'asc';
  if (!(SORT_FIELDS as readonly string[]).includes(sortBy)) {
    addFieldError(errors, 'sort_by', 'The selected sort by is invalid.');
  }
  if (sortOrder !== 'asc' && sortOrder !== 'desc') {
    addFieldError(errors, 'sort_order', 'The selected sort order is invalid.');
  }
  throwIfInvalid(errors);

  const direction = sortOrder === 'desc' ? -1 : 1;
  const records = ctx.store.customersOf(ctx.tenant.id);
  // The store keeps patients in id order: the default sort needs no sorting (100,000 patients, every page).
  const sorted =
    sortBy === 'id' && direction === 1
      ? records
      : [...records].sort((a, b) => direction * compareBy(a, b, sortBy as SortField));
  const viewer = viewerOf(ctx);
  const search = (ctx.query.get('search') ?? '').trim().toLowerCase();
  const url = ctx.apiUrl('/v1/customers');
  if (search === '') {
    // Views for the page only: a tenant of 100,000 patients must not cost 100,000 views per page.
    const page = paginate(sorted, pageRequest, url);
    return {
      status: 200,
      body: { ...page, data: page.data.map((customer) => customerView(customer, viewer)) },
    };
  }
  // Search what the viewer can see, so masked rows cannot be found by their hidden names.
  const views = sorted.map((customer) => customerView(customer, viewer));
  const matching = views.filter((view) => matchesSearch(view, search));
  return { status: 200, body: paginate(matching, pageRequest, url) };
}

function getCustomer(ctx: TenantContext) {
  const customer = recordInPath(
    ctx,
    (id) => ctx.store.customer(ctx.tenant.id, id),
    resourceNotFound('Customer not found.'),
  );
  return ok(customerView(customer, viewerOf(ctx)));
}

async function createCustomer(ctx: TenantContext) {
  const body = await ctx.readJson();
  const input = validateCustomerInput(body, isoDate(ctx.now()));
  const timestamp = apiTimestamp(ctx.now());
  const customer = ctx.store.addCustomer({
    tenant_id: ctx.tenant.id,
    ...input,
    gender: null,
    notes: null,
    lead_id: null,
    assigned_user_id: null,
    is_erased: false,
    is_lead_stage: false,
    created_at: timestamp,
    updated_at: timestamp,
  });
  return ok(customerView(customer, viewerOf(ctx)), 201);
}

/** Like MySQL: nulls sort first ascending; ties fall back to id so pages stay stable. */
function compareBy(a: CustomerRecord, b: CustomerRecord, field: SortField): number {
  const left = a[field];
  const right = b[field];
  if (left !== right) {
    if (left === null) return -1;
    if (right === null) return 1;
    return left < right ? -1 : 1;
  }
  return a.id - b.id;
}

function matchesSearch(view: CustomerView, needle: string): boolean {
  return [view.first_name, view.last_name, view.email].some(
    (value) => value?.toLowerCase().includes(needle) === true,
  );
}
