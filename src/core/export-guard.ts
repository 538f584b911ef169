// Long exports of a collection that changes while it is paged: no record written twice, and the change reported.
import { idOf } from './http/exact-numbers.js';
import { IdSet } from './id-set.js';
import { type Page, type PageClient, type PageMeta, type PageOptions, paginate } from './paginate.js';

/** What changed in the collection between the first page and the last (see ExportGuard.change). */
export interface CollectionChange {
  /** `meta.total` of the first and the last page, when the server gave a number. */
  totalAtStart?: number;
  totalAtEnd?: number;
  /** Records skipped because a record with their id was already written. */
  skipped: number;
  /** Some ids went unchecked (more non-integer ids than the check remembers). */
  unchecked: boolean;
}

/**
 * Offset pagination shifts records when the collection changes: an insertion before the current page shows the
 * page's last records again on the next one. The guard remembers every id written (an IdSet: tiny for runs of ids)
 * and drops repeats, and keeps the totals of the first and last page to tell whether the collection changed.
 */
export class ExportGuard {
  private readonly ids = new IdSet();
  private pages = 0;
  private totalAtStart: number | undefined;
  private totalAtEnd: number | undefined;
  skipped = 0;

  /** Records the page's total: the first page's is the start, the latest the end. */
  see(meta: PageMeta): void {
    const total = Number.isSafeInteger(meta.total) ? meta.total : undefined;
    if (this.pages++ === 0) this.totalAtStart = total;
    this.totalAtEnd = total;
  }

  /** The records not written before, in order; the same array when nothing repeats (no copy for a usual page). */
  fresh(records: readonly unknown[]): readonly unknown[] {
    let kept: unknown[] | undefined;
    for (let at = 0; at < records.length; at++) {
      const record = records[at];
      const id = idOf(record);
      const isNew = id === undefined || this.ids.add(id);
      if (!isNew) {
        this.skipped++;
        kept ??= records.slice(0, at);
      } else if (kept) kept.push(record);
    }
    return kept ?? records;
  }

  /** How the collection changed during the export; undefined when nothing shows it did. */
  change(): CollectionChange | undefined {
    const { totalAtStart, totalAtEnd, skipped } = this;
    const totalsDiffer =
      totalAtStart !== undefined && totalAtEnd !== undefined && totalAtStart !== totalAtEnd;
    if (!totalsDiffer && skipped === 0) return undefined;
    return { totalAtStart, totalAtEnd, skipped, unchecked: this.ids.overflowed };
  }
}

const MAX_PER_PAGE = 100;

/**
 * `paginate`, with every record whose id was already written dropped (a run that follows pages only; one page is
 * the server's answer as it is). `paginate` stops a `limit` run on the records it served, repeats included: when
 * repeats were dropped, the run goes on from the next page for the records still owed, at the same page size (so
 * page numbers keep meaning the same offsets).
 */
export async function* guardedPages(
  client: PageClient,
  path: string,
  query: [string, string][],
  options: PageOptions,
  guard: ExportGuard,
  signal?: AbortSignal,
): AsyncGenerator<Page<unknown>> {
  if (options.all !== true && options.limit === undefined) {
    yield* paginate(client, path, query, options, signal);
    return;
  }
  const { limit } = options;
  const perPage = options.perPage ?? Math.min(limit ?? MAX_PER_PAGE, MAX_PER_PAGE);
  let page = options.page ?? 1;
  let written = 0;
  for (;;) {
    const owed = limit === undefined ? undefined : limit - written;
    let served = 0;
    let fetched = 0;
    const writtenBefore = written;
    let last: Page<unknown> | undefined;
    for await (const next of paginate(
      client,
      path,
      query,
      { ...options, page, perPage, limit: owed },
      signal,
    )) {
      guard.see(next.meta);
      fetched++;
      served += next.records.length;
      last = next;
      const records = guard.fresh(next.records);
      written += records.length;
      yield records === next.records ? next : { ...next, records: records as unknown[] };
    }
    // paginate stopped at the last page (or --all ran out): nothing more to follow.
    if (owed === undefined || limit === undefined || written >= limit || served < owed) return;
    if (last === undefined || last.records.length === 0 || signal?.aborted) return;
    page += fetched;
    const lastPage = last.meta.last_page;
    // Without last_page, a round that wrote nothing new ends the run (a server repeating itself cannot loop it).
    if (typeof lastPage === 'number' ? page > lastPage : written === writtenBefore) return;
  }
}
