// `clinic erasure list`: GET /v1/data-erasure-requests with its typed filters, page by page.
import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { type ListInput, parseListOptions } from '../../cli/list-options.js';
import { type DateBound, dateTimeMs, parseDateBound } from '../../cli/parse-args.js';
import { listPaged } from '../../cli/resource-verbs.js';
import { paths } from '../../core/api/resources.js';
import { UsageError } from '../../core/errors.js';
import { ERASURE_COLUMNS } from './columns.js';
import type { LIST_ERASURE_OPTIONS } from './index.js';

export interface ErasureListOptions {
  list: ListInput;
  /** The filters; the date window as typed (a day, or a date-time without an offset, is made UTC when sent). */
  query: [string, string][];
}

/** The date window's ends: which bound a bare day stands for. */
const BOUNDS: Record<string, DateBound> = { created_at_from: 'start', created_at_to: 'end' };

/** Query parameter → the flag that sets it. */
const FLAGS = {
  status: '--status',
  created_at_from: '--created-from',
  created_at_to: '--created-to',
  sort_by: '--sort-by',
  sort_order: '--sort-order',
};

/** --all with no sort given: oldest first, a firm sort the API documents (new requests land on the last pages). */
const EXPORT_SORT: [string, string][] = [
  ['sort_by', 'created_at'],
  ['sort_order', 'asc'],
];

export function parse({ options }: CommandInput<typeof LIST_ERASURE_OPTIONS>): ErasureListOptions {
  const { createdFrom, createdTo } = options;
  const values: Record<keyof typeof FLAGS, string | undefined> = {
    status: options.status,
    created_at_from: createdFrom,
    created_at_to: createdTo,
    sort_by: options.sortBy,
    sort_order: options.sortOrder,
  };
  const query = Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return { list: parseListOptions(options, FLAGS), query };
}

export async function listErasure(options: ErasureListOptions, ctx: Context): Promise<void> {
  // A day is a day of the zone the run shows times in: local, or UTC with --utc.
  const query = options.query.map(([key, value]): [string, string] => {
    const bound = BOUNDS[key];
    const flag = FLAGS[key as keyof typeof FLAGS];
    return bound ? [key, parseDateBound(value, flag, bound, ctx.globals.utc)] : [key, value];
  });
  // The window's ends compared as the instants sent (a day given to --created-to ends at its end), before any request.
  const sent = Object.fromEntries(query);
  const [from, to] = [sent.created_at_from, sent.created_at_to];
  if (from && to && dateTimeMs(from) > dateTimeMs(to)) {
    const typed = Object.fromEntries(options.query);
    throw new UsageError(
      `--created-from ${typed.created_at_from ?? from} is after --created-to ${typed.created_at_to ?? to}`,
    );
  }
  const list = {
    noun: 'erasure requests',
    path: paths.erasureRequests,
    columns: ERASURE_COLUMNS,
    exportSort: EXPORT_SORT,
    createdTo: { param: 'created_at_to', flag: FLAGS.created_at_to },
  };
  await listPaged(ctx, list, options.list, query);
}

export const run = verb(parse, listErasure);
