// The tenants of an account answer, read defensively: the server may send anything in any field (a null slug, an
// object id), and listing or choosing a tenant must still work by what is usable and never crash on the rest. Also
// the slugs a profile remembers (from `tenants use` and `--tenant SLUG`), so a slug is looked up once per server.
import { dict, isRecord, own, type Profile } from '../core/config/config-file.js';
import type { Settings } from '../core/config/settings.js';
import { NetworkError, NotFoundError, UsageError } from '../core/errors.js';
import { isDigits, isPositiveInteger } from '../core/plain-text.js';
import { ownField } from './output/fields.js';
import { textOf } from './output/text.js';

/** The account's `tenants` entries; none when the account or its list is not what it should be. */
export function tenantsOf(account: unknown): unknown[] {
  const tenants = ownField(account, 'tenants');
  return Array.isArray(tenants) ? tenants : [];
}

/** The id a tenant was sent with, as text when it is a number or text at all (to match what a user types). */
function sentId(tenant: unknown): string | undefined {
  const id = ownField(tenant, 'id');
  return typeof id === 'number' || typeof id === 'string' ? String(id) : undefined;
}

/**
 * A tenant's id as it goes into X-Tenant, and as the config's `tenant` takes it: a positive whole number of a safe
 * size (or its digits as text, with no leading zero); anything else (0, "007", 1e30) is no usable id.
 */
export function tenantId(tenant: unknown): string | undefined {
  const id = sentId(tenant);
  return id !== undefined && isUsableId(id) ? id : undefined;
}

const isUsableId = (id: string) => isPositiveInteger(id) && Number.isSafeInteger(Number(id));

/** A tenant's slug, when it is text. */
export function tenantSlug(tenant: unknown): string | undefined {
  const slug = ownField(tenant, 'slug');
  return typeof slug === 'string' && slug !== '' ? slug : undefined;
}

/** The tenant meant by an id (as the server sent it, usable or not) or a slug (compared without case), if any. */
export function findTenant(tenants: readonly unknown[], wanted: string): unknown {
  // An unusable id is matched too, so that picking that tenant says why it cannot be, not that there is none.
  const byId = isDigits(wanted) ? tenants.find((t) => sentId(t) === wanted) : undefined;
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
    const usable = tenants.filter((t) => tenantId(t) !== undefined);
    const known = usable.map(describeTenant).join(', ') || 'none';
    throw new NotFoundError(`no tenant '${wanted}' in your account; yours: ${known}`);
  }
  const id = tenantId(tenant);
  if (id === undefined)
    throw new NetworkError(
      `unexpected response for the account: tenant ${describeTenant(tenant)} has no usable id ` +
        '(not a positive whole number), so it cannot be used',
    );
  return id;
}

/**
 * Where a profile remembers the slugs of its account's tenants, each with its id, and the base_url of the server
 * that answered: `{"base_url": "https://api.example.com/api", "slugs": {"northside": "1"}}`. A slug names a tenant
 * on one server only, so the slugs are used for that base_url alone. `config unset tenant_slugs` clears them.
 */
export const TENANT_SLUGS = 'tenant_slugs';

/** A slug as the CLI takes it on the command line and offers it in completions. */
export const SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** What a profile remembers: the slugs (lower case) with their ids, and the base_url they came from if recorded. */
interface TenantCache {
  baseUrl: string | undefined;
  slugs: Map<string, string>;
}

/** The profile's cache as the file has it; an older file's bare `{"slug": "id"}` records no base_url. */
function tenantCache(profile: Profile): TenantCache {
  const saved = own(profile, TENANT_SLUGS);
  const current = isRecord(saved) && isRecord(own(saved, 'slugs'));
  const baseUrl = current ? own(saved, 'base_url') : undefined;
  const slugs = new Map<string, string>();
  const entries = current ? own(saved, 'slugs') : saved;
  if (isRecord(entries))
    for (const [slug, id] of Object.entries(entries))
      if (SLUG.test(slug) && typeof id === 'string' && isUsableId(id)) slugs.set(slug.toLowerCase(), id);
  return { baseUrl: typeof baseUrl === 'string' ? baseUrl : undefined, slugs };
}

/**
 * The slugs a profile remembers for the server at `baseUrl`, to send without a look-up; none when the cache came
 * from another server or does not say which (a slug of another clinic's server must never pick the tenant).
 */
export function rememberedTenants(profile: Profile, baseUrl: string | undefined): Map<string, string> {
  const cache = tenantCache(profile);
  return sameBaseUrl(cache.baseUrl, baseUrl) ? cache.slugs : new Map();
}

/**
 * The slugs to show offline (`tenants list --offline`, completions): all the profile remembers, unless they are
 * known to be another server's than `baseUrl`. Only shown: `--tenant SLUG` trusts rememberedTenants alone.
 */
export function offlineTenants(profile: Profile, baseUrl: string | undefined): Map<string, string> {
  const cache = tenantCache(profile);
  const elsewhere =
    cache.baseUrl !== undefined && baseUrl !== undefined && !sameBaseUrl(cache.baseUrl, baseUrl);
  return elsewhere ? new Map() : cache.slugs;
}

/**
 * The base_url under which an account read with these settings may be remembered in the profile: the effective
 * one when it is the profile's own; none for a profile not in the file (CLINIC_* alone, a cron job) or when
 * --base-url or CLINIC_BASE_URL points elsewhere (that server's slugs must not replace the profile's).
 */
export function cacheBaseUrl(settings: Settings): string | undefined {
  if (!settings.profileExists) return undefined;
  const effective = settings.get('base_url');
  return sameBaseUrl(effective, ownBaseUrl(settings)) ? effective : undefined;
}

/**
 * Whether two base_urls name one API, as URLs do (`https://API.example.com:443/api/` is `https://api.example.com/api`);
 * never when either is missing or no URL.
 */
export function sameBaseUrl(a: string | undefined, b: string | undefined): boolean {
  const key = (text: string | undefined) => {
    if (text === undefined) return undefined;
    try {
      const url = new URL(text);
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      return undefined;
    }
  };
  const [x, y] = [key(a), key(b)];
  return x !== undefined && x === y;
}

/** The profile's own base_url; none when the file's is unset or unusable (a flag overriding it still works). */
export function ownBaseUrl(settings: Settings): string | undefined {
  try {
    return settings.own().get('base_url');
  } catch (error) {
    if (error instanceof UsageError) return undefined;
    throw error;
  }
}

/** Remembers, in place of what was there, the slug and id of every usable tenant of `baseUrl`'s account answer. */
export function rememberTenants(profile: Profile, tenants: readonly unknown[], baseUrl: string): void {
  const slugs = dict<string>();
  for (const tenant of tenants) {
    const id = tenantId(tenant);
    const slug = tenantSlug(tenant);
    if (id !== undefined && slug !== undefined && SLUG.test(slug)) slugs[slug.toLowerCase()] = id;
  }
  profile[TENANT_SLUGS] = { base_url: baseUrl, slugs };
}
