// `clinic tenants use ID-OR-SLUG`: resolves a slug to its id and saves it as the profile's tenant.

import { sanitize } from '../../cli/output/sanitize.js';
import { ownField } from '../../cli/output/fields.js';
import { textOf } from '../../cli/output/text.js';
import type { CommandRun } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { getAccount } from '../../core/api/resources.js';
import { setPath } from '../../core/config/config-file.js';
import { NetworkError, NotFoundError, UsageError } from '../../core/errors.js';
import { describeTenant, findTenant, tenantId, tenantsOf } from './account-tenants.js';

export async function useTenant(wanted: string, ctx: Context): Promise<void> {
  if (wanted.trim() === '') throw new UsageError('give a tenant id or slug');
  const [client, settings] = await Promise.all([ctx.http(), ctx.settings()]);
  const tenants = tenantsOf(await getAccount(client));
  const tenant = findTenant(tenants, wanted.trim());
  if (tenant === undefined) {
    const known = tenants.map(describeTenant).join(', ') || 'none';
    throw new NotFoundError(`no tenant '${wanted}' in your account; yours: ${known}`);
  }
  const id = tenantId(tenant);
  if (id === undefined)
    throw new NetworkError(`unexpected response for the account: tenant '${wanted}' has no usable id`);
  await ctx.editProfile((profile) => setPath(profile, 'tenant', id), settings.profile.name);
  const name = sanitize(textOf(ownField(tenant, 'name')));
  ctx.io.err(`profile ${settings.profile.name} now uses tenant ${id}${name ? ` (${name})` : ''}`);
}

export const run: CommandRun = (input, ctx) => useTenant(input.args[0] ?? '', ctx);
