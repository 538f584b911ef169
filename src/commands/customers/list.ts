// `clinic customers list`: GET /v1/customers, page by page.

import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { LIST_OPTIONS, type ListInput, parseListOptions } from '../../cli/list-options.js';
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

export default defineCommand({
  name: 'list',
  summary: 'list customers (patients) of the tenant',
  description:
    "List customers (GET /v1/customers). The API document does not show this endpoint's filters; pass any\n" +
    'query parameter with --filter key=value (the sandbox knows search, sort_by and sort_order).',
  options: LIST_OPTIONS,
  examples: [
    'clinic customers list --per-page 20',
    'clinic customers list --all -o ndjson > customers.ndjson',
    'clinic customers list --filter search=smith --limit 5 -o csv',
  ],
  run: (input, ctx) => listCustomers(parseListOptions(input.options), ctx),
});
