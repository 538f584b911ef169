// `clinic customers list`: GET /v1/customers, page by page.

import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { type LIST_OPTIONS, type ListInput, parseListOptions } from '../../cli/list-options.js';
import { showList } from '../../cli/present.js';
import { paths } from '../../core/api/resources.js';
import { paginate } from '../../core/paginate.js';
import { CUSTOMER_COLUMNS } from './columns.js';

export async function listCustomers(options: ListInput, ctx: Context): Promise<void> {
  const client = await ctx.http();
  const pages = paginate(client, paths.customers, options.filters, options.page, ctx.signal);
  await showList(ctx, pages, {
    columns: CUSTOMER_COLUMNS,
    noun: 'customers',
    limit: options.page.limit,
    progress: options.page.all === true,
  });
}

export const run = verb(
  (input: CommandInput<typeof LIST_OPTIONS>) => parseListOptions(input.options),
  listCustomers,
);
