// `--tenant ID-OR-SLUG`: an id is sent as it is; a slug is read from the slugs the profile remembers for this
// base_url, or else looked up once in the account's tenants (GET /v1/account) and remembered in the profile for the
// next runs (when base_url is the profile's own: see cacheBaseUrl).
import type { Profile } from '../core/config/config-file.js';
import type { Settings } from '../core/config/settings.js';
import { UsageError } from '../core/errors.js';
import {
  cacheBaseUrl,
  rememberedTenants,
  rememberTenants,
  SLUG,
  tenantIdFor,
  tenantsOf,
} from './account-tenants.js';

export interface TenantLookup {
  /** The account (GET /v1/account, which needs no tenant). */
  account(): Promise<unknown>;
  /** Makes a change to the profile in the file; a failure to write only costs the next run a look-up. */
  editProfile(change: (profile: Profile) => void): Promise<unknown>;
}

/** The tenant id `--tenant` stands for; undefined without the flag. An id is left for the settings to check. */
export async function tenantIdOfFlag(
  flag: string | undefined,
  settings: Settings,
  lookup: TenantLookup,
): Promise<string | undefined> {
  if (flag === undefined) return undefined;
  const wanted = flag.trim();
  if (/^\d+$/.test(wanted)) return wanted;
  if (!SLUG.test(wanted)) throw new UsageError(`--tenant takes a tenant id or slug, got '${flag}'`);
  const remembered = rememberedTenants(settings.profileData, settings.get('base_url'));
  const id = remembered.get(wanted.toLowerCase());
  if (id !== undefined) return id;
  const tenants = tenantsOf(await lookup.account());
  const baseUrl = cacheBaseUrl(settings);
  if (baseUrl !== undefined)
    await lookup.editProfile((profile) => rememberTenants(profile, tenants, baseUrl)).catch(() => undefined);
  return tenantIdFor(tenants, wanted);
}
