// Page-by-page iteration of the API's list endpoints: builds each page URL from its own query, stops at last_page,
// and stops with an error when a server's pages could never end (a wrong page, a page repeated, past its own total).
import { NetworkError } from './errors.js';
import type { ApiResponse, HttpClient } from './http/client.js';
import { idOf } from './http/exact-numbers.js';
import { IdSet } from './id-set.js';

export interface PageOptions {
  /** First page to fetch (default 1). */
  page?: number;
  perPage?: number;
  /** Follow every page. */
  all?: boolean;
  /** Stop after this many records (follows pages as needed). */
  limit?: number;
  /** Pages in flight at most while following pages (--concurrency; default 1: one ahead). */
  concurrency?: number;
}

export interface PageMeta {
  current_page?: number;
  last_page?: number;
  per_page?: number;
  total?: number;
}

export interface Page<T> {
  records: T[];
  meta: PageMeta;
  /**
   * Whether the server said where its pages end (meta.last_page, or links with a next): without it, a list's one page
   * may be all there is, or only the first of more (not shown in the API document).
   */
  paged?: boolean;
  /** The server's body, untouched (for --raw). */
  text: string;
}

/** What paginate needs of the client: requests, and how many may be in flight (HttpClient.mayStart). */
export type PageClient = Pick<HttpClient, 'request'> & Partial<Pick<HttpClient, 'mayStart'>>;

/** A page asked for: its answer, and when its request has left (see ApiRequest.onSent). */
interface Fetch {
  page: number;
  answer: Promise<ApiResponse>;
  sent: Promise<void>;
}

const MAX_PER_PAGE = 100;

/**
 * Yields pages in order; with neither `all` nor `limit` only the one page asked for. While the caller writes a page
 * the next ones are already on their way: up to `concurrency` pages in flight (fewer when the rate-limit budget has
 * less room, and only one ahead while the server gives no last_page), so memory holds at most that many pages besides
 * the one being written. A page is yielded only once the requests for the pages after it have left: node:http writes
 * a request a turn later, and a writer that blocks (a full pipe) would otherwise hold it back.
 * The signal aborts the requests in flight too; pages fetched ahead and never asked for are abandoned.
 */
export async function* paginate<T = unknown>(
  client: PageClient,
  path: string,
  query: [string, string][],
  options: PageOptions,
  signal?: AbortSignal,
): AsyncGenerator<Page<T>> {
  const follow = options.all === true || options.limit !== undefined;
  // Following pages: fewer, larger pages unless the user chose a size.
  const perPage =
    options.perPage ?? (follow ? Math.min(options.limit ?? MAX_PER_PAGE, MAX_PER_PAGE) : undefined);
  const width = follow ? Math.max(1, options.concurrency ?? 1) : 1;
  const abandon = new AbortController();
  const requestSignal = signal ? AbortSignal.any([signal, abandon.signal]) : abandon.signal;
  const kept = query.filter(([key]) => key !== 'page' && key !== 'per_page');
  const fetchPage = (page: number): Fetch => {
    const params = new URLSearchParams(kept);
    params.set('page', String(page));
    if (perPage !== undefined) params.set('per_page', String(perPage));
    let told!: () => void;
    const sent = new Promise<void>((resolve) => (told = resolve));
    const answer = client.request({
      method: 'GET',
      path,
      query: params,
      signal: requestSignal,
      onSent: told,
    });
    answer.then(told, told); // a page fetched ahead and never asked for must not fail the run
    return { page, answer, sent };
  };
  let page = options.page ?? 1;
  let next = page + 1;
  const ahead: Fetch[] = [fetchPage(page)];
  let seen = 0;
  let checked = 0;
  let previous: T[] | undefined;
  const ids = follow ? new IdSet() : undefined;
  /** Sends the pages up to `until` that `wanted` in flight and the budget allow; resolves once they have left. */
  const sendAhead = (until: number, wanted: number) => {
    let room = client.mayStart ? client.mayStart(wanted, ahead.length) : wanted - ahead.length;
    for (; room > 0 && next <= until; room--) ahead.push(fetchPage(next++));
    return Promise.all(ahead.map((fetch) => fetch.sent));
  };
  // What the last page said of the pages after it, once two pages have checked out. The pages it says exist leave
  // as soon as the next page is in, before it is read: the server works on them while that page is parsed, checked
  // and written. A page that then says fewer exist has cost one request for nothing.
  let known: { lastPage: number; meta: PageMeta } | undefined;
  // A collection whose total moves while it is paged is followed one page at a time from then on: its records shift
  // between offsets, and pages in flight side by side can be served out of order (each on its own connection), which
  // would skip the records that shifted between them.
  let startTotal: number | undefined;
  let changing = false;
  let pagesRead = 0;
  try {
    for (;;) {
      if (signal?.aborted) return;
      const fetched = ahead.shift()!;
      page = fetched.page;
      const response = await fetched.answer;
      if (known) {
        // This page may hold up to perPage records: only the pages needed whatever it holds.
        const until = Math.min(known.lastPage, lastNeeded(page, seen + (perPage ?? 0), options, perPage));
        if (next <= until && !pastCeiling(known.meta, until, perPage, path))
          await sendAhead(until, changing ? 1 : width);
      }
      const { records, meta, hasNext, paged } = readPage<T>(response, path);
      checkPage(meta, page, path);
      const total = integer(meta.total);
      if (pagesRead++ === 0) startTotal = total;
      else changing ||= total !== startTotal;
      if (follow && records.length > 0) {
        checkNewRecords(records, previous, ids!, page, path);
        previous = records;
      }
      seen += records.length;
      const lastPage = integer(meta.last_page);
      const more =
        follow &&
        records.length > 0 &&
        (options.limit === undefined || seen < options.limit) &&
        (lastPage === undefined ? hasNext : page < lastPage);
      if (more) {
        const beyond = pastCeiling(meta, page + 1, perPage, path);
        if (beyond) {
          yield { records, meta, paged, text: response.text };
          throw beyond;
        }
        // Without last_page only the next page is known to exist; with it, as many as the budget allows.
        const until =
          lastPage === undefined ? page + 1 : Math.min(lastPage, lastNeeded(page, seen, options, perPage));
        // One page ahead until a second page has checked out: a server whose pages never end costs two requests.
        const wanted = ++checked >= 2 && !changing ? width : 1;
        await sendAhead(until, wanted);
      }
      known = more && checked >= 2 && lastPage !== undefined ? { lastPage, meta } : undefined;
      yield { records, meta, paged, text: response.text };
      if (!more) return;
    }
  } finally {
    abandon.abort();
  }
}

/** The last page a --limit run may need: every page full from here on. */
function lastNeeded(page: number, seen: number, options: PageOptions, perPage: number | undefined): number {
  if (options.limit === undefined || perPage === undefined) return Infinity;
  return page + Math.ceil((options.limit - seen) / perPage);
}

/**
 * A server that keeps offering a next page must still be sending new records: not the page before again, nor pages
 * seen before in another order (A, B, A, B…), nor the same ids with a field changed. The records are compared whole
 * only when their ids do not show them new (comparing every page whole doubled the cost of serialising an export).
 */
function checkNewRecords<T>(
  records: T[],
  previous: T[] | undefined,
  ids: IdSet,
  page: number,
  path: string,
): void {
  const fresh = bringsNewIds(records, ids);
  if (fresh === true) return;
  if (previous && JSON.stringify(records) === JSON.stringify(previous))
    throw new NetworkError(
      `the server sent the same records for page ${page} of ${path} as for page ${page - 1}; stopping`,
    );
  if (fresh === false)
    throw new NetworkError(
      `the server sent page ${page} of ${path} with no record that earlier pages had not; stopping`,
    );
}

/** Whether a page adds an id not seen on an earlier page; 'no ids' for a page whose records carry none to compare. */
function bringsNewIds(records: readonly unknown[], ids: IdSet): boolean | 'no ids' {
  let carried = false;
  let fresh = false;
  for (const record of records) {
    const id = idOf(record);
    if (id === undefined) continue;
    carried = true;
    if (ids.add(id)) fresh = true;
  }
  return carried ? fresh : 'no ids';
}

/** A page that says it is another page than the one asked for: following it would repeat or skip records. */
function checkPage(meta: PageMeta, asked: number, path: string): void {
  const current = integer(meta.current_page);
  if (current !== undefined && current !== asked)
    throw new NetworkError(
      `the server answered page ${current} when asked for page ${asked} of ${path}; stopping`,
    );
}

/** No page past what the server's own total and page size allow (a last_page of 1e9 for 40 records). */
function pastCeiling(
  meta: PageMeta,
  next: number,
  asked: number | undefined,
  path: string,
): NetworkError | undefined {
  const total = integer(meta.total);
  const size = integer(meta.per_page) ?? asked;
  if (total === undefined || size === undefined || size < 1 || total < 0) return undefined;
  const pages = Math.max(1, Math.ceil(total / size));
  if (next <= pages) return undefined;
  return new NetworkError(
    `the server offers page ${next} of ${path} but its total of ${total} at ${size} per page makes ${pages}; stopping`,
  );
}

/** A whole number from the server's meta (Laravel sends numbers; a numeric string is read too). */
function integer(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
}

/** A page's records, its meta, and whether it links a next page (what a page without last_page goes by): one parse. */
function readPage<T>(
  response: ApiResponse,
  path: string,
): { records: T[]; meta: PageMeta; hasNext: boolean; paged: boolean } {
  const body = response.json<{ data?: unknown; meta?: unknown; links?: { next?: unknown } }>();
  if (!Array.isArray(body?.data)) throw new NetworkError(`unexpected response from ${path}: no 'data' list`);
  const meta = typeof body.meta === 'object' && body.meta !== null ? (body.meta as PageMeta) : {};
  const links = typeof body.links === 'object' && body.links !== null ? body.links : {};
  const paged = integer(meta.last_page) !== undefined || 'next' in links;
  return { records: body.data as T[], meta, hasNext: typeof links.next === 'string', paged };
}
