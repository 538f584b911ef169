// The options every list command shares (--page, --per-page, --all, --limit, --filter), parsed and checked.
export { LIST_OPTIONS } from './list-flags.js';
import type { PageOptions } from '../core/paginate.js';
import { UsageError } from '../core/errors.js';
import { parsePairs, parseWholeNumber } from './parse-args.js';

export interface ListInput {
  page: PageOptions;
  filters: [string, string][];
}

export function parseListOptions(options: Record<string, unknown>): ListInput {
  const number = (key: string, name: string, range: { min?: number; max?: number }) =>
    options[key] === undefined ? undefined : parseWholeNumber(String(options[key]), name, range);
  return {
    page: {
      page: number('page', '--page', { min: 1 }),
      perPage: number('perPage', '--per-page', { min: 1, max: 100 }),
      limit: number('limit', '--limit', { min: 1 }),
      all: options.all === true,
    },
    filters: checkFilters(parsePairs((options.filter as string[] | undefined) ?? [], '--filter')),
  };
}

/** `page` and `per_page` belong to the paging options, which check them; a filter would be silently replaced. */
function checkFilters(filters: [string, string][]): [string, string][] {
  const paging = filters.find(([key]) => key === 'page' || key === 'per_page');
  if (paging)
    throw new UsageError(`--filter ${paging[0]}=… is not a filter: use --${paging[0].replace('_', '-')}`);
  return filters;
}
