// `clinic account`: the signed-in user (GET /v1/account, no X-Tenant).

import { defineCommand } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { showResource } from '../cli/present.js';
import { getAccountRequest } from '../core/api/resources.js';

export async function showAccount(ctx: Context): Promise<void> {
  const client = await ctx.http();
  await showResource(ctx, await client.request(getAccountRequest()), 'the account');
}

export default defineCommand({
  name: 'account',
  summary: 'show the signed-in user and their tenants',
  examples: ['clinic account', 'clinic account --fields name,email,tenants -o json'],
  run: (_input, ctx) => showAccount(ctx),
});
