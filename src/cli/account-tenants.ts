// The tenants of an account answer, read defensively: the server may send anything in any field (a null slug, an
// object id), and listing or choosing a tenant must still work by what is usable and never crash on the rest.
import { ownField } from '../../cli/output/fields.js';
import { textOf } from '../../cli/output/text.js';

/** The account's `tenants` entries; none when the account or its list is not what it should be. */
export function tenantsOf(account: unknown): unknown[] {
  const tenants = ownField(account, 'tenants');
  return Array.isArray(tenants) ? tenants : [];
}

/** A tenant's id as it goes into X-Tenant: a whole number (or its digits as text); anything else is no id. */
export function tenantId(tenant: unknown): string | undefined {
  const id = ownField(tenant, 'id');
  if (typeof id === 'number') return Number.isSafeInteger(id) && id >= 0 ? String(id) : undefined;
  return typeof id === 'string' && /^\d+$/.test(id) ? id : undefined;
}

/** A tenant's slug, when it is text. */
export function tenantSlug(tenant: unknown): string | undefined {
  const slug = ownField(tenant, 'slug');
  return typeof slug === 'string' && slug !== '' ? slug : undefined;
}

/** The tenant meant by an id or a slug (slugs compared without case), if one of them is usable and matches. */
export function findTenant(tenants: readonly unknown[], wanted: string): unknown {
  const byId = /^\d+$/.test(wanted) ? tenants.find((t) => tenantId(t) === wanted) : undefined;
  return byId ?? tenants.find((t) => tenantSlug(t)?.toLowerCase() === wanted.toLowerCase());
}

/** `2 (northside)`, `2` without a slug, `? (northside)` without a usable id: for messages. */
export function describeTenant(tenant: unknown): string {
  const id = tenantId(tenant) ?? textOf(ownField(tenant, 'id') ?? '?');
  const slug = tenantSlug(tenant);
  return slug === undefined ? id : `${id} (${slug})`;
}
