// `clinic tenants use ID-OR-SLUG`: resolves a slug to its id and saves it as the profile's tenant, remembering the
// account's slugs on the way (for `--tenant SLUG` and completions).

import { sanitize } from '../../cli/output/sanitize.js';
import { ownField } from '../../cli/output/fields.js';
import { textOf } from '../../cli/output/text.js';
import type { CommandRun } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { getAccount } from '../../core/api/resources.js';
import { setPath } from '../../core/config/config-file.js';
import { noteOverride } from '../../cli/override-note.js';
import { UsageError } from '../../core/errors.js';
import {
  cacheBaseUrl,
  findTenant,
  ownBaseUrl,
  rememberTenants,
  sameBaseUrl,
  tenantIdFor,
  tenantsOf,
} from '../../cli/account-tenants.js';

export async function useTenant(wanted: string, ctx: Context): Promise<void> {
  if (wanted.trim() === '') throw new UsageError('give a tenant id or slug');
  const settings = await ctx.settings();
  // The id is saved for the profile's own server: one looked up on another would name another clinic's tenant there.
  const own = ownBaseUrl(settings);
  const effective = settings.get('base_url');
  if (own !== undefined && effective !== undefined && !sameBaseUrl(effective, own)) {
    const from = settings.describe('base_url').source === 'flag' ? '--base-url' : 'CLINIC_BASE_URL';
    throw new UsageError(
      `tenants use would save a tenant of ${effective} (${from}) in profile ${settings.profile.name}, whose ` +
        `base_url is ${own}: run it without ${from}, or pass --tenant for one call`,
    );
  }
  const client = await ctx.http();
  const tenants = tenantsOf(await getAccount(client));
  const id = tenantIdFor(tenants, wanted.trim());
  const baseUrl = cacheBaseUrl(settings);
  await ctx.editProfile((profile) => {
    setPath(profile, 'tenant', id);
    if (baseUrl !== undefined) rememberTenants(profile, tenants, baseUrl);
  }, settings.profile.name);
  const name = sanitize(textOf(ownField(findTenant(tenants, wanted.trim()), 'name')));
  ctx.io.err(`profile ${settings.profile.name} now uses tenant ${id}${name ? ` (${name})` : ''}`);
  await noteOverride(ctx, 'tenant');
}

export const run: CommandRun = (input, ctx) => useTenant(input.args[0] ?? '', ctx);
