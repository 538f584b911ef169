// Page-by-page iteration of the API's list endpoints: builds each page URL from its own query, stops at last_page.
import { NetworkError } from './errors.js';
import type { ApiResponse, HttpClient } from './http/client.js';

export interface PageOptions {
  /** First page to fetch (default 1). */
  page?: number;
  perPage?: number;
  /** Follow every page. */
  all?: boolean;
  /** Stop after this many records (follows pages as needed). */
  limit?: number;
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
  /** The server's body, untouched (for --raw). */
  text: string;
}

const MAX_PER_PAGE = 100;

/**
 * Yields pages in order; with neither `all` nor `limit` only the one page asked for. While the caller writes a page
 * the next one is already being fetched: one page ahead, never more, so memory stays at two pages whatever the size.
 */
export async function* paginate<T = unknown>(
  client: Pick<HttpClient, 'request'>,
  path: string,
  query: [string, string][],
  options: PageOptions,
  signal?: AbortSignal,
): AsyncGenerator<Page<T>> {
  const follow = options.all === true || options.limit !== undefined;
  // Following pages: fewer, larger pages unless the user chose a size.
  const perPage =
    options.perPage ?? (follow ? Math.min(options.limit ?? MAX_PER_PAGE, MAX_PER_PAGE) : undefined);
  const fetchPage = (page: number) => {
    const params = new URLSearchParams(query.filter(([key]) => key !== 'page' && key !== 'per_page'));
    params.set('page', String(page));
    if (perPage !== undefined) params.set('per_page', String(perPage));
    const pending = client.request({ method: 'GET', path, query: params });
    pending.catch(() => undefined); // a page fetched ahead and never asked for must not fail the run
    return pending;
  };
  let page = options.page ?? 1;
  let pending = fetchPage(page);
  let seen = 0;
  for (;;) {
    if (signal?.aborted) return;
    const response = await pending;
    const { records, meta } = readPage<T>(response, path);
    seen += records.length;
    const lastPage = typeof meta.last_page === 'number' ? meta.last_page : undefined;
    const more =
      follow &&
      records.length > 0 &&
      (options.limit === undefined || seen < options.limit) &&
      (lastPage === undefined ? hasNext(response) : page < lastPage);
    if (more) pending = fetchPage(++page);
    yield { records, meta, text: response.text };
    if (!more) return;
  }
}

/** Records of the pages, cut at `limit` even in the middle of a page. */
export async function* records<T>(pages: AsyncIterable<Page<T>>, limit?: number): AsyncGenerator<T> {
  let count = 0;
  for await (const page of pages) {
    for (const record of page.records) {
      if (limit !== undefined && count >= limit) return;
      count++;
      yield record;
    }
  }
}

function readPage<T>(response: ApiResponse, path: string): { records: T[]; meta: PageMeta } {
  const body = response.json<{ data?: unknown; meta?: unknown }>();
  if (!Array.isArray(body?.data)) throw new NetworkError(`unexpected response from ${path}: no 'data' list`);
  const meta = typeof body.meta === 'object' && body.meta !== null ? (body.meta as PageMeta) : {};
  return { records: body.data as T[], meta };
}

function hasNext(response: ApiResponse): boolean {
  const body = response.json<{ links?: { next?: unknown } }>();
  return typeof body.links?.next === 'string';
}
