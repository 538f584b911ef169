// The options every list command shares (--page, --per-page, --all, --limit, --filter), into paging and a query.
export { LIST_OPTIONS } from './list-flags.js';
import type { PageOptions } from '../core/paginate.js';
import { UsageError } from '../core/errors.js';
import type { OptionsOf } from './command.js';
import type { LIST_OPTIONS } from './list-flags.js';
import { parsePairs } from './parse-args.js';

export interface ListInput {
  page: PageOptions;
  filters: [string, string][];
}

/** `modelled` are the query keys the command has typed flags for: --filter may not set them behind their back. */
export function parseListOptions(
  options: Partial<OptionsOf<typeof LIST_OPTIONS>>,
  modelled: Record<string, string> = {},
): ListInput {
  // --all reads from the first page on: a --page beside it would silently be ignored, or print nothing.
  if (options.all && options.page !== undefined)
    throw new UsageError('--all reads every page from the first; --page N reads one page: give one of them');
  return {
    page: { page: options.page, perPage: options.perPage, limit: options.limit, all: options.all === true },
    filters: checkFilters(parsePairs(options.filter ?? [], '--filter'), modelled),
  };
}

/** `page` and `per_page` belong to the paging options, which check them; a filter would be silently replaced. */
function checkFilters(filters: [string, string][], modelled: Record<string, string>): [string, string][] {
  const owners: Record<string, string> = { page: '--page', per_page: '--per-page', ...modelled };
  const taken = filters.find(([key]) => owners[key] !== undefined);
  if (taken) throw new UsageError(`--filter ${taken[0]}=… is not a filter here: use ${owners[taken[0]]}`);
  return filters;
}
