// `clinic tenants list`: the tenants of the signed-in user's account.

import type { CommandRun } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { createListWriter } from '../../cli/output/render.js';
import { getAccount } from '../../core/api/resources.js';

export const TENANT_COLUMNS = [
  { header: 'ID', path: 'id' },
  { header: 'SLUG', path: 'slug' },
  { header: 'NAME', path: 'name' },
  { header: 'ACTIVE', path: 'is_active' },
  { header: 'CURRENT', path: 'current' },
];

export async function listTenants(ctx: Context): Promise<void> {
  const [client, settings] = await Promise.all([ctx.http(), ctx.settings()]);
  const account = await getAccount(client);
  const current = settings.get('tenant');
  const writer = createListWriter(ctx.io, await ctx.output(), TENANT_COLUMNS);
  for (const tenant of account.tenants ?? []) {
    await writer.write({ ...tenant, current: String(tenant.id) === current });
  }
  await writer.end();
}

export const run: CommandRun = (_input, ctx) => listTenants(ctx);
