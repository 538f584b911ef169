// Pagination against servers whose pages never end: a wrong page, the same page again, more pages than the total
// allows; and the abort signal reaching the request in flight.
import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../../src/core/errors.js';
import type { ApiRequest, ApiResponse } from '../../../src/core/http/client.js';
import { paginate } from '../../../src/core/paginate.js';

/** A fake `{ request }` answering each page with `body(page)`, recording the pages asked for. */
function server(body: (page: number) => unknown) {
  const asked: number[] = [];
  const client = {
    async request(request: ApiRequest): Promise<ApiResponse> {
      const page = Number(new URLSearchParams(request.query as URLSearchParams).get('page'));
      asked.push(page);
      const text = JSON.stringify(body(page));
      return { status: 200, headers: {}, text, json: <T>() => JSON.parse(text) as T };
    },
  };
  return { client, asked };
}

/** Reads every page; returns the records' ids read before the end and the error that ended it, if any. */
async function readAll(client: ReturnType<typeof server>['client'], options = { all: true }) {
  const ids: unknown[] = [];
  try {
    for await (const page of paginate<{ id: number }>(client, '/v1/customers', [], options))
      ids.push(...page.records.map((r) => r.id));
  } catch (error) {
    return { ids, error };
  }
  return { ids, error: undefined };
}

const records = (page: number, size = 2) =>
  Array.from({ length: size }, (_, i) => ({ id: (page - 1) * size + i + 1 }));

describe('endless pages end', () => {
  it('a server that answers page 1 to every request (last_page 1e9): one page, then exit 1 saying so', async () => {
    const { client, asked } = server(() => ({
      data: records(1),
      meta: { current_page: 1, last_page: 1e9 },
    }));
    const { ids, error } = await readAll(client);
    expect(ids).toEqual([1, 2]);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe(
      'the server answered page 1 when asked for page 2 of /v1/customers; stopping',
    );
    expect(asked.length).toBeLessThanOrEqual(2);
  });

  it('the page asked for is checked on a single page too, and a numeric string is read', async () => {
    const wrong = await readAll(server(() => ({ data: [], meta: { current_page: '4' } })).client, {
      all: false,
    } as never);
    expect((wrong.error as Error).message).toMatch(/answered page 4 when asked for page 1/);
    const right = server((page) => ({
      data: records(page),
      meta: { current_page: String(page), last_page: '2' },
    }));
    expect((await readAll(right.client)).ids).toEqual([1, 2, 3, 4]);
  });

  it('links.next only, the same records again and again: stops at the repeat, before printing it', async () => {
    const { client } = server(() => ({ data: records(1), links: { next: 'https://api.test/next' } }));
    const { ids, error } = await readAll(client);
    expect(ids).toEqual([1, 2]);
    expect((error as Error).message).toMatch(/same records for page 2 of \/v1\/customers as for page 1/);
  });

  it('links.next only, pages alternating A, B, A, B: stops at the first page that brings no new id', async () => {
    const { client, asked } = server((page) => ({
      data: records(2 - (page % 2)),
      meta: { current_page: page },
      links: { next: 'x' },
    }));
    const { ids, error } = await readAll(client);
    expect(ids).toEqual([1, 2, 3, 4]);
    expect((error as Error).message).toBe(
      'the server sent page 3 of /v1/customers with no record that earlier pages had not; stopping',
    );
    expect(asked.length).toBeLessThanOrEqual(4);
  });

  it('links.next only, the same id on every page with a field changing: stops at page 2', async () => {
    const { client } = server((page) => ({ data: [{ id: 7, page }], links: { next: 'x' } }));
    const { ids, error } = await readAll(client);
    expect(ids).toEqual([7]);
    expect((error as Error).message).toMatch(/page 2 of \/v1\/customers with no record that earlier pages/);
  });

  it('records without ids are followed as long as they change (nothing to compare but the whole page)', async () => {
    const { client } = server((page) => ({
      data: [{ name: `n${page}` }],
      links: { next: page < 5 ? 'x' : null },
    }));
    const { error } = await readAll(client);
    expect(error).toBeUndefined();
  });

  it('a last page repeating the one before is not printed either', async () => {
    const { client } = server((page) => ({
      data: records(1),
      meta: { last_page: 2 },
      links: { next: page < 2 ? 'x' : null },
    }));
    expect((await readAll(client)).ids).toEqual([1, 2]);
  });

  it('more pages than total / per_page allows: the pages the total covers, then an error', async () => {
    const { client, asked } = server((page) => ({
      data: records(page, 10),
      links: { next: 'https://api.test/next' },
      meta: { current_page: page, last_page: 1e9, per_page: 10, total: 25 },
    }));
    const { ids, error } = await readAll(client);
    expect(ids).toHaveLength(30);
    expect((error as Error).message).toBe(
      'the server offers page 4 of /v1/customers but its total of 25 at 10 per page makes 3; stopping',
    );
    expect(asked).toEqual([1, 2, 3]);
  });

  it('a healthy collection is read whole', async () => {
    const { client } = server((page) => ({
      data: records(page, 10).filter((r) => r.id <= 25),
      meta: { current_page: page, last_page: 3, per_page: 10, total: 25 },
    }));
    expect((await readAll(client)).ids).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });
});

describe('the signal reaches each request', () => {
  /** A server whose second page never comes, until the request's own signal aborts it. */
  function stalling() {
    const signals: (AbortSignal | undefined)[] = [];
    const client = {
      request(request: ApiRequest): Promise<ApiResponse> {
        signals.push(request.signal);
        if (signals.length === 1) {
          const text = JSON.stringify({ data: records(1), meta: { current_page: 1, last_page: 5 } });
          return Promise.resolve({ status: 200, headers: {}, text, json: <T>() => JSON.parse(text) as T });
        }
        request.onSent?.(); // on the wire, never answered
        return new Promise((_, reject) =>
          request.signal?.addEventListener('abort', () => reject(new Error('aborted in flight'))),
        );
      },
    };
    return { client, signals };
  }

  it('aborting stops the request in flight, not only between pages', async () => {
    const { client, signals } = stalling();
    const controller = new AbortController();
    const pages = paginate(client, '/v1/customers', [], { all: true }, controller.signal);
    await pages.next();
    const second = pages.next();
    controller.abort();
    await expect(second).rejects.toThrow('aborted in flight');
    expect(signals[1]?.aborted).toBe(true);
  });

  it('a page fetched ahead and never asked for is abandoned', async () => {
    const { client, signals } = stalling();
    for await (const page of paginate(client, '/v1/customers', [], { all: true })) {
      expect(page.records).toHaveLength(2);
      break;
    }
    expect(signals[1]?.aborted).toBe(true);
  });
});
