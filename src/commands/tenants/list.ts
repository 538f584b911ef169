// `clinic tenants list`: the tenants of the signed-in user's account, their slugs remembered in the profile (for
// --tenant SLUG and completions); with --offline, only what the profile remembers, without a request.

import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import type { Column } from '../../cli/output/table.js';
import { showItems } from '../../cli/present.js';
import { declaredFields } from '../../core/api/declared-fields.js';
import { getAccount } from '../../core/api/resources.js';
import {
  cacheBaseUrl,
  offlineTenants,
  rememberTenants,
  tenantId,
  tenantsOf,
} from '../../cli/account-tenants.js';
import type { LIST_TENANTS_OPTIONS } from './index.js';

export const TENANT_COLUMNS: Column[] = [
  { header: 'ID', path: 'id', keep: true },
  { header: 'SLUG', path: 'slug', keep: true },
  { header: 'NAME', path: 'name', priority: 5, min: 12 },
  { header: 'ACTIVE', path: 'is_active', priority: 3 },
  { header: 'CURRENT', path: 'current', priority: 4 },
];

/** A tenant as listed: its fields as the server sent them, and whether it is the profile's tenant. */
export function listedTenant(tenant: unknown, current: string | undefined): unknown {
  if (typeof tenant !== 'object' || tenant === null || Array.isArray(tenant)) return tenant;
  const id = tenantId(tenant);
  return { ...tenant, current: id !== undefined && id === current };
}

export async function listTenants(options: { offline: boolean }, ctx: Context): Promise<void> {
  const settings = await ctx.settings();
  const current = settings.get('tenant');
  const declared = [...declaredFields('Tenant'), 'current'];
  if (options.offline) {
    const slugs = offlineTenants(settings.profileData, settings.get('base_url'));
    const remembered = [...slugs].map(([slug, id]) => ({ id: Number(id), slug }));
    await showItems(
      ctx,
      remembered.map((tenant) => listedTenant(tenant, current)),
      { columns: TENANT_COLUMNS, output: { declared } },
    );
    return;
  }
  const tenants = tenantsOf(await getAccount(await ctx.http()));
  // A cache for --tenant SLUG and completions, in a profile of the file, of the profile's own server only (see
  // cacheBaseUrl); a file that cannot be written costs only a later look-up.
  const baseUrl = cacheBaseUrl(settings);
  if (baseUrl !== undefined)
    await ctx
      .editProfile((profile) => rememberTenants(profile, tenants, baseUrl), settings.profile.name)
      .catch(() => undefined);
  await showItems(
    ctx,
    tenants.map((tenant) => listedTenant(tenant, current)),
    { columns: TENANT_COLUMNS, output: { declared } },
  );
}

export const run = verb(
  ({ options }: CommandInput<typeof LIST_TENANTS_OPTIONS>) => ({ offline: options.offline === true }),
  listTenants,
);
