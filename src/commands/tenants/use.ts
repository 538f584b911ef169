// `clinic tenants use ID-OR-SLUG`: resolves a slug to its id and saves it as the profile's tenant.

import { sanitize } from '../../cli/output/sanitize.js';
import type { CommandRun } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { getAccount } from '../../core/api/resources.js';
import type { TenantRef } from '../../core/api/types.js';
import { setPath } from '../../core/config/config-file.js';
import { NotFoundError, UsageError } from '../../core/errors.js';

export function findTenant(tenants: TenantRef[], wanted: string): TenantRef | undefined {
  const byId = /^\d+$/.test(wanted) ? tenants.find((t) => String(t.id) === wanted) : undefined;
  return byId ?? tenants.find((t) => t.slug.toLowerCase() === wanted.toLowerCase());
}

export async function useTenant(wanted: string, ctx: Context): Promise<void> {
  if (wanted.trim() === '') throw new UsageError('give a tenant id or slug');
  const [client, settings] = await Promise.all([ctx.http(), ctx.settings()]);
  const account = await getAccount(client);
  const tenant = findTenant(account.tenants ?? [], wanted.trim());
  if (!tenant) {
    const known = (account.tenants ?? []).map((t) => `${t.id} (${t.slug})`).join(', ') || 'none';
    throw new NotFoundError(`no tenant '${wanted}' in your account; yours: ${known}`);
  }
  await ctx.editProfile((profile) => setPath(profile, 'tenant', String(tenant.id)), settings.profile.name);
  ctx.io.err(`profile ${settings.profile.name} now uses tenant ${tenant.id} (${sanitize(tenant.name)})`);
}

export const run: CommandRun = (input, ctx) => useTenant(input.args[0] ?? '', ctx);
