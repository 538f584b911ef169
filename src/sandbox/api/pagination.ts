// Laravel-style length-aware pagination: validates page/per_page and builds data, links and meta.
import type { FieldErrors } from '../http/responses.js';
import { addFieldError, parsePositiveInteger } from './field-errors.js';

export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;

export interface PageRequest {
  page: number;
  perPage: number;
  /** Laravel resources keep per_page in their links only when the caller sent it. */
  perPageGiven: boolean;
}

interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

/** The document's paginated list: `data`, `links` and `meta` only (no `success`, unlike single records). */
export interface PaginatedBody<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    to: number | null;
    last_page: number;
    per_page: number;
    total: number;
    path: string;
    links: PageLink[];
  };
}

/** Reads page and per_page, recording a field error for each bad value. Empty values count as absent. */
export function readPageRequest(query: URLSearchParams, errors: FieldErrors): PageRequest {
  const rawPage = query.get('page') ?? '';
  const rawPerPage = query.get('per_page') ?? '';
  let page = 1;
  if (rawPage !== '') {
    if (!/^-?\d+$/.test(rawPage) || !Number.isSafeInteger(Number(rawPage))) {
      addFieldError(errors, 'page', 'The page field must be an integer.');
    } else if (Number(rawPage) < 1) {
      addFieldError(errors, 'page', 'The page field must be at least 1.');
    } else {
      page = Number(rawPage);
    }
  }
  let perPage = DEFAULT_PER_PAGE;
  if (rawPerPage !== '') {
    const parsed = parsePositiveInteger(rawPerPage);
    if (parsed === undefined || parsed > MAX_PER_PAGE) {
      addFieldError(errors, 'per_page', `The per page field must be between 1 and ${MAX_PER_PAGE}.`);
    } else {
      perPage = parsed;
    }
  }
  return { page, perPage, perPageGiven: rawPerPage !== '' };
}

/** One page of `items`; links carry only page (and per_page when given), dropping other filters like Laravel. */
export function paginate<T>(items: readonly T[], request: PageRequest, path: string): PaginatedBody<T> {
  const { page, perPage } = request;
  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const data = items.slice((page - 1) * perPage, page * perPage);
  const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
  const url = (target: number) => {
    const query = new URLSearchParams();
    if (request.perPageGiven) query.set('per_page', String(perPage));
    query.set('page', String(target));
    return `${path}?${query.toString()}`;
  };
  const prev = page > 1 ? url(page - 1) : null;
  const next = page < lastPage ? url(page + 1) : null;
  return {
    data,
    links: { first: url(1), last: url(lastPage), prev, next },
    meta: {
      current_page: page,
      from,
      to: from === null ? null : from + data.length - 1,
      last_page: lastPage,
      per_page: perPage,
      total,
      path,
      links: [
        { url: prev, label: '&laquo; Previous', active: false },
        ...pageWindow(page, lastPage).map((element) =>
          element === '...'
            ? { url: null, label: '...', active: false }
            : { url: url(element), label: String(element), active: element === page },
        ),
        { url: next, label: 'Next &raquo;', active: false },
      ],
    },
  };
}

/** Laravel's UrlWindow with onEachSide = 3: every page when few, else a slider with '...' gaps. */
function pageWindow(current: number, last: number): (number | '...')[] {
  const onEachSide = 3;
  if (last < onEachSide * 2 + 8) return range(1, last);
  const window = onEachSide + 4;
  if (current <= window) return [...range(1, window + onEachSide), '...', last - 1, last];
  if (current > last - window) return [1, 2, '...', ...range(last - (window + onEachSide - 1), last)];
  return [1, 2, '...', ...range(current - onEachSide, current + onEachSide), '...', last - 1, last];
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);
}
