// `clinic customers create`: POST /v1/customers with a body from --data and --set.

import { type BodyFlags, readBody } from '../../cli/body-input.js';
import type { CommandRun } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { showDryRun, showResource } from '../../cli/present.js';
import { createCustomerRequest } from '../../core/api/resources.js';

export async function createCustomer(flags: BodyFlags, ctx: Context): Promise<void> {
  const body = await readBody(flags, ctx.io);
  const client = await ctx.http();
  const request = createCustomerRequest(body);
  if (ctx.globals.dryRun) return showDryRun(ctx, client, request);
  await showResource(ctx, await client.request(request), 'the new customer');
}

export const run: CommandRun = (input, ctx) =>
  createCustomer(
    {
      data: input.options.data as string | undefined,
      set: (input.options.set as string[] | undefined) ?? [],
    },
    ctx,
  );
