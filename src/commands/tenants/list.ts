// `clinic tenants list`: the tenants of the signed-in user's account.

import type { CommandRun } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import type { Column } from '../../cli/output/table.js';
import { showItems } from '../../cli/present.js';
import { declaredFields } from '../../core/api/declared-fields.js';
import { getAccount } from '../../core/api/resources.js';
import { tenantId, tenantsOf } from './account-tenants.js';

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

export async function listTenants(ctx: Context): Promise<void> {
  const [client, settings] = await Promise.all([ctx.http(), ctx.settings()]);
  const tenants = tenantsOf(await getAccount(client));
  const current = settings.get('tenant');
  const listed = tenants.map((tenant) => listedTenant(tenant, current));
  const declared = [...declaredFields('Tenant'), 'current'];
  await showItems(ctx, listed, { columns: TENANT_COLUMNS, output: { declared } });
}

export const run: CommandRun = (_input, ctx) => listTenants(ctx);
