// `clinic account`: the signed-in user (GET /v1/account, no X-Tenant).

import type { CommandRun } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { showResource } from '../../cli/present.js';
import { getAccountRequest } from '../../core/api/resources.js';

export async function showAccount(ctx: Context): Promise<void> {
  const client = await ctx.http();
  const request = getAccountRequest();
  await showResource(ctx, await client.request(request), 'the account', request.path);
}

export const run: CommandRun = (_input, ctx) => showAccount(ctx);
