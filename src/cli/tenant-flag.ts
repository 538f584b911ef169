// `--tenant ID-OR-SLUG`: an id is sent as it is; a slug is read from the slugs the profile remembers, or else looked
// up once in the account's tenants (GET /v1/account) and remembered in the profile for the next runs.
import type { Profile } from '../core/config/config-file.js';
import { UsageError } from '../core/errors.js';
import { rememberedTenants, SLUG, tenantIdFor, tenantsOf } from './account-tenants.js';

export interface TenantLookup {
  /** The account (GET /v1/account, which needs no tenant). */
  account(): Promise<unknown>;
  /** Keeps the account's tenants in the profile; a failure to write only costs the next run a look-up. */
  remember(tenants: readonly unknown[]): Promise<void>;
}

/** The tenant id `--tenant` stands for; undefined without the flag. An id is left for the settings to check. */
export async function tenantIdOfFlag(
  flag: string | undefined,
  profile: Profile,
  lookup: TenantLookup,
): Promise<string | undefined> {
  if (flag === undefined) return undefined;
  const wanted = flag.trim();
  if (/^\d+$/.test(wanted)) return wanted;
  if (!SLUG.test(wanted)) throw new UsageError(`--tenant takes a tenant id or slug, got '${flag}'`);
  const remembered = rememberedTenants(profile).get(wanted.toLowerCase());
  if (remembered !== undefined) return remembered;
  const tenants = tenantsOf(await lookup.account());
  await lookup.remember(tenants).catch(() => undefined);
  return tenantIdFor(tenants, wanted);
}
