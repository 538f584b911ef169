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
  rememberTenants,
  tenantIdFor,
  tenantsOf,
} from '../../cli/account-tenants.js';

export async function useTenant(wanted: string, ctx: Context): Promise<void> {
  if (wanted.trim() === '') throw new UsageError('give a tenant id or slug');
  const [client, settings] = await Promise.all([ctx.http(), ctx.settings()]);
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
