// Page-by-page listing with a fake client: stop rules, --limit, per_page defaults and page URLs.
import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../../src/core/errors.js';
import type { ApiRequest, ApiResponse } from '../../../src/core/http/client.js';
import { type PageOptions, paginate } from '../../../src/core/paginate.js';

interface FakePage {
  data?: unknown;
  links?: { next: string | null };
  meta?: { current_page?: number; last_page?: number; total?: number; per_page?: number };
}

/** A fake `{ request }` that answers page N with `pages[N-1]` and records every request's query. */
function fakeClient(pages: FakePage[] | ((page: number) => FakePage)) {
  const calls: { path: string; query: URLSearchParams }[] = [];
  const client = {
    async request(request: ApiRequest): Promise<ApiResponse> {
      const query = new URLSearchParams(request.query as URLSearchParams);
      calls.push({ path: request.path, query });
      const page = Number(query.get('page') ?? '1');
      const body = typeof pages === 'function' ? pages(page) : pages[page - 1];
      if (body === undefined) throw new Error(`unexpected request for page ${page}`);
      const text = JSON.stringify(body);
      return { status: 200, headers: {}, text, json: <T>() => JSON.parse(text) as T };
    },
  };
  return { client, calls };
}

/** A collection of `total` records served `perPage` at a time, Laravel style (links.next drops the filters). */
function collection(total: number) {
  return (page: number, perPage: number): FakePage => {
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const from = (page - 1) * perPage;
    const data = Array.from({ length: Math.max(0, Math.min(perPage, total - from)) }, (_, i) => ({
      id: from + i + 1,
    }));
    return {
      data,
      links: { next: page < lastPage ? `https://api.test/api/v1/customers?page=${page + 1}` : null },
      meta: { current_page: page, last_page: lastPage, per_page: perPage, total },
    };
  };
}

function collectionClient(total: number) {
  const make = collection(total);
  const calls: { path: string; query: URLSearchParams }[] = [];
  const client = {
    async request(request: ApiRequest): Promise<ApiResponse> {
      const query = new URLSearchParams(request.query as URLSearchParams);
      calls.push({ path: request.path, query });
      const text = JSON.stringify(make(Number(query.get('page')), Number(query.get('per_page') ?? 15)));
      return { status: 200, headers: {}, text, json: <T>() => JSON.parse(text) as T };
    },
  };
  return { client, calls };
}

async function collect(
  client: ReturnType<typeof fakeClient>['client'],
  options: PageOptions,
  query: [string, string][] = [],
): Promise<unknown[]> {
  // Every record of every page paginate yields: cutting the last page at --limit is the writer's job (present.ts).
  const out: unknown[] = [];
  for await (const page of paginate(client, '/v1/customers', query, options)) out.push(...page.records);
  return out;
}

describe('paginate stop rules', () => {
  it('empty result: one request, zero records', async () => {
    const { client, calls } = fakeClient([
      { data: [], links: { next: null }, meta: { last_page: 1, total: 0 } },
    ]);
    expect(await collect(client, { all: true })).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it('one page', async () => {
    const { client, calls } = fakeClient([
      { data: [{ id: 1 }, { id: 2 }], links: { next: null }, meta: { current_page: 1, last_page: 1 } },
    ]);
    expect(await collect(client, { all: true })).toEqual([{ id: 1 }, { id: 2 }]);
    expect(calls).toHaveLength(1);
  });

  it('follows pages and stops on the last one (links.next null, no meta)', async () => {
    const { client, calls } = fakeClient([
      { data: [{ id: 1 }], links: { next: 'https://x/api/v1/customers?page=2' } },
      { data: [{ id: 2 }], links: { next: null } },
      { data: [{ id: 3 }], links: { next: null } },
    ]);
    expect(await collect(client, { all: true })).toEqual([{ id: 1 }, { id: 2 }]);
    expect(calls.map((c) => c.query.get('page'))).toEqual(['1', '2']);
  });

  it('parses each page once, also when links.next is what says a next page exists', async () => {
    let parses = 0;
    const client = {
      async request(request: ApiRequest): Promise<ApiResponse> {
        const page = Number((request.query as URLSearchParams).get('page'));
        const next = page < 3 ? `https://x/api/v1/customers?page=${page + 1}` : null;
        const text = JSON.stringify({ data: [{ id: page }], links: { next } });
        return { status: 200, headers: {}, text, json: <T>() => (parses++, JSON.parse(text) as T) };
      },
    };
    expect(await collect(client, { all: true })).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(parses).toBe(3);
  });

  it('meta.last_page stops even when links.next is still a string', async () => {
    const { client, calls } = fakeClient([
      { data: [{ id: 1 }], links: { next: 'p2' }, meta: { last_page: 2 } },
      { data: [{ id: 2 }], links: { next: 'p3 (bogus)' }, meta: { last_page: 2 } },
      { data: [{ id: 3 }], links: { next: null }, meta: { last_page: 3 } },
    ]);
    expect(await collect(client, { all: true })).toEqual([{ id: 1 }, { id: 2 }]);
    expect(calls).toHaveLength(2);
  });

  it('stops at an empty page even when the server claims more', async () => {
    const { client, calls } = fakeClient([
      { data: [{ id: 1 }], meta: { last_page: 5 } },
      { data: [], meta: { last_page: 5 } },
    ]);
    expect(await collect(client, { all: true })).toEqual([{ id: 1 }]);
    expect(calls).toHaveLength(2);
  });

  it('follows all pages of a 250-record collection with per_page 100', async () => {
    const { client, calls } = collectionClient(250);
    const out = await collect(client, { all: true });
    expect(out).toHaveLength(250);
    expect(out.at(-1)).toEqual({ id: 250 });
    expect(calls.map((c) => [c.query.get('page'), c.query.get('per_page')])).toEqual([
      ['1', '100'],
      ['2', '100'],
      ['3', '100'],
    ]);
  });

  it('without --all or --limit only one page is fetched, with the server default per_page', async () => {
    const { client, calls } = collectionClient(50);
    expect(await collect(client, {})).toHaveLength(15);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.query.has('per_page')).toBe(false);
    expect(calls[0]?.query.get('page')).toBe('1');
  });

  it('--page 3 starts at page 3', async () => {
    const { client, calls } = collectionClient(100);
    const out = await collect(client, { page: 3, perPage: 10 });
    expect(out[0]).toEqual({ id: 21 });
    expect(out).toHaveLength(10);
    expect(calls.map((c) => c.query.get('page'))).toEqual(['3']);
  });

  it('--page 3 --all continues from 3 to the last page', async () => {
    const { client, calls } = collectionClient(50);
    await collect(client, { page: 3, perPage: 10, all: true });
    expect(calls.map((c) => c.query.get('page'))).toEqual(['3', '4', '5']);
  });
});

describe('--limit', () => {
  it('in the middle of a page stops requesting after the page that reaches N', async () => {
    // The writer cuts that page at N (test/e2e/commands/customers.test.ts: 'stops after --limit records, mid-page').
    const { client, calls } = collectionClient(100);
    const out = await collect(client, { limit: 25, perPage: 10 });
    expect(out).toEqual(Array.from({ length: 30 }, (_, i) => ({ id: i + 1 })));
    expect(calls.map((c) => c.query.get('page'))).toEqual(['1', '2', '3']);
  });

  it('per_page defaults to min(limit, 100)', async () => {
    const small = collectionClient(500);
    expect(await collect(small.client, { limit: 7 })).toHaveLength(7);
    expect(small.calls.map((c) => c.query.get('per_page'))).toEqual(['7']);

    const large = collectionClient(500);
    // Three pages of 100: the third reaches 250, and the writer cuts it there.
    expect(await collect(large.client, { limit: 250 })).toHaveLength(300);
    expect(large.calls.map((c) => c.query.get('per_page'))).toEqual(['100', '100', '100']);
  });

  it('larger than the total gives every record and stops at the last page', async () => {
    const { client, calls } = collectionClient(30);
    const out = await collect(client, { limit: 1000 });
    expect(out).toHaveLength(30);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.query.get('per_page')).toBe('100');
  });
});

describe('page URLs', () => {
  it('are built from the original query plus page: filters kept though links.next drops them', async () => {
    const { client, calls } = collectionClient(25);
    await collect(client, { all: true, perPage: 10 }, [
      ['status', 'pending'],
      ['sort_by', 'created_at'],
    ]);
    expect(calls).toHaveLength(3);
    for (const [i, call] of calls.entries()) {
      expect(call.path).toBe('/v1/customers');
      expect(call.query.get('status')).toBe('pending');
      expect(call.query.get('sort_by')).toBe('created_at');
      expect(call.query.get('page')).toBe(String(i + 1));
      expect(call.query.get('per_page')).toBe('10');
    }
  });

  it('a page or per_page in the query is replaced, not duplicated', async () => {
    const { client, calls } = collectionClient(5);
    await collect(client, { all: true }, [
      ['page', '9'],
      ['per_page', '3'],
      ['q', 'x'],
    ]);
    expect(calls[0]?.query.getAll('page')).toEqual(['1']);
    expect(calls[0]?.query.getAll('per_page')).toEqual(['100']);
    expect(calls[0]?.query.get('q')).toBe('x');
  });
});

describe('bad answers', () => {
  it('a body without a data array is an error', async () => {
    const { client } = fakeClient([{ meta: { last_page: 1 } }]);
    await expect(collect(client, { all: true })).rejects.toBeInstanceOf(NetworkError);
  });

  it('data that is an object, not a list, is an error', async () => {
    const { client } = fakeClient([{ data: { id: 1 } }]);
    await expect(collect(client, {})).rejects.toThrow(/no 'data' list/);
  });

  it('a non-JSON body is an error', async () => {
    const client = {
      request: async (): Promise<ApiResponse> => ({
        status: 200,
        headers: {},
        text: '<html>',
        json: () => {
          throw new NetworkError('the body is not JSON');
        },
      }),
    };
    await expect(collect(client, {})).rejects.toBeInstanceOf(NetworkError);
  });
});

describe('cancellation', () => {
  it('fetches one page ahead while the caller holds a page, never two', async () => {
    const { client, calls } = collectionClient(45);
    const inFlight: number[] = [];
    for await (const page of paginate(client, '/v1/customers', [], { all: true, perPage: 10 })) {
      inFlight.push(calls.length - (page.meta.current_page ?? 0));
    }
    // Pages 1-4 each have the next one on its way; the last has none.
    expect(inFlight).toEqual([1, 1, 1, 1, 0]);
    expect(calls).toHaveLength(5);
  });

  it('stops once the signal is aborted: the page fetched ahead is the only other request', async () => {
    const { client, calls } = collectionClient(100);
    const controller = new AbortController();
    const seen: unknown[] = [];
    for await (const page of paginate(
      client,
      '/v1/customers',
      [],
      { all: true, perPage: 10 },
      controller.signal,
    )) {
      seen.push(...page.records);
      controller.abort();
    }
    expect(seen).toHaveLength(10);
    expect(calls).toHaveLength(2);
  });

  it('exposes meta.total and the raw text of each page', async () => {
    const { client } = collectionClient(42);
    const first = await paginate(client, '/v1/customers', [], { all: true }).next();
    expect(first.value?.meta.total).toBe(42);
    expect(JSON.parse(first.value?.text ?? '{}').meta.total).toBe(42);
  });
});
