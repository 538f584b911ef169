// `clinic customers get ID`: GET /v1/customers/{id}.

import type { CommandRun } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { parseId } from '../../cli/parse-args.js';
import { showResource } from '../../cli/present.js';
import { getCustomerRequest } from '../../core/api/customers.js';

export async function showCustomer(id: number, ctx: Context): Promise<void> {
  const client = await ctx.http();
  await showResource(ctx, await client.request(getCustomerRequest(id)), `customer ${id}`);
}

export const run: CommandRun = (input, ctx) => showCustomer(parseId(input.args[0] ?? '', 'customer ID'), ctx);
