// The tenants of an account answer, read defensively: the server may send anything in any field (a null slug, an
// object id), and listing or choosing a tenant must still work by what is usable and never crash on the rest. Also
// the slugs a profile remembers (from `tenants use` and `--tenant SLUG`), so a slug is looked up once.
import { dict, isRecord, own, type Profile } from '../core/config/config-file.js';
import { NetworkError, NotFoundError } from '../core/errors.js';
import { ownField } from './output/fields.js';
import { textOf } from './output/text.js';

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

/** The tenant `wanted` (an id or a slug) names among the account's, as the id to send; else a clear error. */
export function tenantIdFor(tenants: readonly unknown[], wanted: string): string {
  const tenant = findTenant(tenants, wanted);
  if (tenant === undefined) {
    const known = tenants.map(describeTenant).join(', ') || 'none';
    throw new NotFoundError(`no tenant '${wanted}' in your account; yours: ${known}`);
  }
  const id = tenantId(tenant);
  if (id === undefined)
    throw new NetworkError(`unexpected response for the account: tenant '${wanted}' has no usable id`);
  return id;
}

/** Where a profile remembers the slugs of its account's tenants, each with its id: `{"northside": "1"}`. */
export const TENANT_SLUGS = 'tenant_slugs';

/** A slug as the CLI takes it on the command line and offers it in completions. */
export const SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** The slugs (lower case) a profile remembers, with their ids; whatever else the file holds there is skipped. */
export function rememberedTenants(profile: Profile): Map<string, string> {
  const saved = own(profile, TENANT_SLUGS);
  const known = new Map<string, string>();
  if (!isRecord(saved)) return known;
  for (const [slug, id] of Object.entries(saved))
    if (SLUG.test(slug) && typeof id === 'string' && /^[1-9]\d*$/.test(id)) known.set(slug.toLowerCase(), id);
  return known;
}

/** Remembers, in place of what was there, the slug and id of every usable tenant of an account answer. */
export function rememberTenants(profile: Profile, tenants: readonly unknown[]): void {
  const slugs = dict<string>();
  for (const tenant of tenants) {
    const id = tenantId(tenant);
    const slug = tenantSlug(tenant);
    if (id !== undefined && slug !== undefined && SLUG.test(slug)) slugs[slug.toLowerCase()] = id;
  }
  profile[TENANT_SLUGS] = slugs;
}
