// The list verbs most nouns share: a paginated list, an unpaginated list (one record by id: show-verb.ts).
import { declaredFieldsAt } from '../core/api/declared-fields.js';
import { ExportGuard, guardedPages } from '../core/export-guard.js';
import type { ApiResponse } from '../core/http/client.js';
import { concurrencyOf } from '../core/http/in-flight.js';
import { type CommandInput, type CommandRun, verb } from './command.js';
import type { Context } from './context.js';
import { type LIST_OPTIONS, type ListInput, parseListOptions } from './list-options.js';
import type { Column } from './output/table.js';
import { showList, showRecords } from './present.js';

export interface PagedList {
  noun: string;
  path: string;
  columns: Column[];
  /**
   * A firm ascending sort the endpoint documents, sent with --all when the user chose no sort: records created
   * during the export then land on the last pages (and are picked up) instead of shifting the pages still to come.
   */
  exportSort?: [string, string][];
  /** The endpoint's "created on or before" filter and its flag, to say how to get a complete export. */
  createdTo?: { param: string; flag: string };
}

/** Streams a paginated list with the shared paging flags plus the endpoint's own query. */
export async function listPaged(
  ctx: Context,
  list: PagedList,
  input: ListInput,
  query: [string, string][] = [],
): Promise<void> {
  const startedAt = new Date(ctx.clock.now()).toISOString();
  const client = await ctx.http();
  const full = [...query, ...input.filters];
  const sortKeys = new Set((list.exportSort ?? []).map(([key]) => key));
  if (input.page.all && list.exportSort && !full.some(([key]) => sortKeys.has(key)))
    full.push(...list.exportSort);
  const guard = new ExportGuard();
  const paging = { ...input.page, concurrency: concurrencyOf(ctx.globals.concurrency) };
  const pages = guardedPages(client, list.path, full, paging, guard, ctx.signal);
  const canNarrow = list.createdTo && !full.some(([key]) => key === list.createdTo?.param);
  await showList(ctx, pages, {
    columns: list.columns,
    noun: list.noun,
    output: { declared: declaredFieldsAt(list.path) },
    limit: input.page.limit,
    progress: input.page.all === true,
    guard,
    completeHint: canNarrow ? `add ${list.createdTo?.flag} ${startedAt} (when this one started)` : undefined,
  });
}

/** `<noun> list` over a paginated endpoint with no filters of its own. */
export function pagedListVerb(list: PagedList): CommandRun<typeof LIST_OPTIONS> {
  return verb(
    (input: CommandInput<typeof LIST_OPTIONS>) => parseListOptions(input.options),
    (input, ctx) => listPaged(ctx, list, input),
  );
}

/** Whether a list answer says it is one page of more (`meta` or `links`, as a paginated collection's does). */
function paginated(answer: ApiResponse): boolean {
  const body = answer.json<{ meta?: unknown; links?: unknown } | null>();
  const isObject = (value: unknown) => typeof value === 'object' && value !== null;
  return isObject(body) && (isObject(body?.meta) || isObject(body?.links));
}

/**
 * `<noun> list` over an unpaginated endpoint (`{success, data: [...]}`): the list flags work as on any list
 * (`--filter` and paging go to the query, in case the server grows them; `--limit` cuts on this side).
 */
export function plainListVerb(list: PagedList): CommandRun<typeof LIST_OPTIONS> {
  return verb(
    (input: CommandInput<typeof LIST_OPTIONS>) => parseListOptions(input.options),
    async ({ page, filters }, ctx) => {
      const query = new URLSearchParams(filters);
      if (page.page !== undefined) query.set('page', String(page.page));
      if (page.perPage !== undefined) query.set('per_page', String(page.perPage));
      const client = await ctx.http();
      const answer = await client.request({ method: 'GET', path: list.path, query });
      if ((page.page !== undefined || page.perPage !== undefined) && !paginated(answer))
        // A script stepping through pages would get the same records each time, without a word.
        ctx.io.err(
          `warning: ${list.path} answered one list without pages: --page and --per-page were not applied (--limit N keeps the first N)`,
        );
      await showRecords(ctx, answer, {
        columns: list.columns,
        noun: list.noun,
        output: { declared: declaredFieldsAt(list.path) },
        limit: page.limit,
        progress: false,
      });
    },
  );
}
