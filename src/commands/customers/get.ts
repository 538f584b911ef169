// `clinic customers get ID`: GET /v1/customers/{id}.

import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { parseId } from '../../cli/parse-args.js';
import { showResource } from '../../cli/present.js';
import { getCustomerRequest } from '../../core/api/resources.js';

export async function showCustomer(id: number, ctx: Context): Promise<void> {
  const client = await ctx.http();
  await showResource(ctx, await client.request(getCustomerRequest(id)), `customer ${id}`);
}

export default defineCommand({
  name: 'get',
  summary: 'show one customer',
  args: [{ name: 'id', description: 'customer id' }],
  examples: [
    'clinic customers get 42',
    'clinic customers get 42 --fields first_name,record_state.reason_code',
  ],
  run: (input, ctx) => showCustomer(parseId(input.args[0] ?? '', 'customer ID'), ctx),
});
