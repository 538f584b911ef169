// The export guard: repeats of a shifting collection dropped, --limit still met, the change told; no extra requests.
import { describe, expect, it } from 'vitest';
import { changeWarning } from '../../../src/cli/present.js';
import { ExportGuard, guardedPages } from '../../../src/core/export-guard.js';
import type { ApiRequest, ApiResponse } from '../../../src/core/http/client.js';
import type { PageOptions } from '../../../src/core/paginate.js';

/**
 * A collection listed newest first whose ids 1..total grow by `inserted` after each page served: offset paging then
 * serves the last `inserted` records of a page again at the top of the next one.
 */
function growingCollection(total: number, inserted: number, options: { lastPage?: boolean } = {}) {
  let newest = total;
  const queries: URLSearchParams[] = [];
  const client = {
    async request(request: ApiRequest): Promise<ApiResponse> {
      const query = new URLSearchParams(request.query as URLSearchParams);
      queries.push(query);
      const page = Number(query.get('page'));
      const perPage = Number(query.get('per_page') ?? 15);
      const top = newest - (page - 1) * perPage;
      const data = Array.from({ length: Math.max(0, Math.min(perPage, top)) }, (_, i) => ({ id: top - i }));
      const meta: Record<string, number> = { current_page: page, per_page: perPage, total: newest };
      if (options.lastPage !== false) meta.last_page = Math.max(1, Math.ceil(newest / perPage));
      const next = options.lastPage === false && data.length === perPage ? 'https://api.test/next' : null;
      const text = JSON.stringify({ data, meta, links: { next } });
      newest += inserted;
      return { status: 200, headers: {}, text, json: <T>() => JSON.parse(text) as T };
    },
  };
  return { client, queries };
}

async function run(client: ReturnType<typeof growingCollection>['client'], options: PageOptions) {
  const guard = new ExportGuard();
  const ids: number[] = [];
  for await (const page of guardedPages(client, '/v1/things', [], options, guard)) {
    for (const record of page.records) ids.push((record as { id: number }).id);
    if (options.limit !== undefined && ids.length >= options.limit) break;
  }
  return { ids: options.limit === undefined ? ids : ids.slice(0, options.limit), guard };
}

describe('ExportGuard', () => {
  it('hands a page back as it is when nothing repeats, and drops repeats (counted) otherwise', () => {
    const guard = new ExportGuard();
    const first = [{ id: 1 }, { id: 2 }, { name: 'no id' }, { id: 'a' }];
    expect(guard.fresh(first)).toBe(first);
    const again = [{ id: 2 }, { id: 3 }, { id: 'a' }, { name: 'no id' }, null, { id: 4 }];
    expect(guard.fresh(again)).toEqual([{ id: 3 }, { name: 'no id' }, null, { id: 4 }]);
    expect(guard.skipped).toBe(2);
  });

  it('tells a change by the totals of the first and last page, or by repeats; nothing when neither shows', () => {
    const still = new ExportGuard();
    still.see({ total: 10 });
    still.see({ total: 10 });
    expect(still.change()).toBeUndefined();
    const grown = new ExportGuard();
    grown.see({ total: 10 });
    grown.see({ total: 12 });
    expect(grown.change()).toEqual({ totalAtStart: 10, totalAtEnd: 12, skipped: 0, unchecked: false });
    const odd = new ExportGuard();
    odd.see({ total: '10' as unknown as number });
    odd.see({ total: 12 });
    expect(odd.change()).toBeUndefined();
  });
});

describe('guardedPages', () => {
  it('--all over a collection growing between pages (newest first) writes every id once', async () => {
    const { client, queries } = growingCollection(50, 4);
    const { ids, guard } = await run(client, { all: true, perPage: 10 });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, 3)).toEqual([50, 49, 48]);
    expect(guard.skipped).toBeGreaterThan(0);
    expect(guard.change()).toMatchObject({ totalAtStart: 50, skipped: guard.skipped });
    expect(queries.every((query) => query.get('per_page') === '10')).toBe(true);
  });

  it('--limit still gives N distinct records when repeats were dropped, following on from the next page', async () => {
    const { client, queries } = growingCollection(1000, 3);
    const { ids, guard } = await run(client, { limit: 25, perPage: 10 });
    expect(ids).toHaveLength(25);
    expect(new Set(ids).size).toBe(25);
    expect(guard.skipped).toBeGreaterThan(0);
    const pages = queries.map((query) => Number(query.get('page')));
    expect(pages).toEqual(pages.map((_, i) => i + 1));
  });

  it('--limit keeps the page size paginate chose (min(limit, 100)) when it follows on', async () => {
    const { client, queries } = growingCollection(1000, 5);
    const { ids } = await run(client, { limit: 12 });
    expect(new Set(ids).size).toBe(12);
    expect(queries.map((query) => query.get('per_page'))).toEqual(queries.map(() => '12'));
  });

  it('sends exactly the requests paginate would for a still collection', async () => {
    const { client, queries } = growingCollection(35, 0);
    const { ids, guard } = await run(client, { limit: 30, perPage: 10 });
    expect(ids).toEqual(Array.from({ length: 30 }, (_, i) => 35 - i));
    expect(queries.map((query) => query.get('page'))).toEqual(['1', '2', '3']);
    expect(guard.change()).toBeUndefined();
  });

  it('without last_page, a round that brings nothing new ends the run (exit 1: the limit cannot be met)', async () => {
    // Growing by a page per page served, newest first: every page repeats the one before, so nothing new comes.
    const { client, queries } = growingCollection(40, 10, { lastPage: false });
    await expect(run(client, { limit: 35, perPage: 10 })).rejects.toThrow(/the same records for page 2/);
    expect(queries.length).toBeLessThan(10);
  });
});

describe('changeWarning', () => {
  it('says what changed (more, fewer, repeats, unchecked ids) and how to get a complete export', () => {
    expect(
      changeWarning('customers', { totalAtStart: 10, totalAtEnd: 7, skipped: 1, unchecked: false }),
    ).toBe(
      'warning: the customers changed during this export: 10 at the start, 7 at the end (3 fewer); 1 record shown ' +
        'again by the shift, skipped. What was written is valid but may miss records; for a complete export, run it again',
    );
    const grown = changeWarning(
      'erasure requests',
      { totalAtStart: 5, totalAtEnd: 9, skipped: 0, unchecked: true },
      'add --created-to 2026-01-01T00:00:00.000Z (when this one started)',
    );
    expect(grown).toContain(': 5 at the start, 9 at the end (4 more); too many non-numeric ids');
    expect(grown).toMatch(
      /for a complete export, add --created-to \S+ \(when this one started\) or run it again$/,
    );
    expect(changeWarning('things', { skipped: 2, unchecked: false })).toContain(
      'changed during this export: 2 records shown again by the shift, skipped.',
    );
  });
});
