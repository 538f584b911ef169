// --concurrency for exports: pages in flight never exceed N nor the rate-limit budget's room, records come out in
// page order however the answers are ordered, and no more than N pages wait unread while one is written.
import { describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResponse } from '../../../src/core/http/client.js';
import { mayStart } from '../../../src/core/http/in-flight.js';
import { type PageOptions, paginate } from '../../../src/core/paginate.js';

const PER_PAGE = 10;

/**
 * A server of `pages` pages of PER_PAGE records that answers only when the test says: `answer(page)`. It counts the
 * requests in flight (asked, not yet answered) and the most there ever were.
 */
function heldServer(pages: number, room?: () => number | undefined) {
  const waiting = new Map<number, () => void>();
  const asked: number[] = [];
  let inFlight = 0;
  let most = 0;
  const arrived: (() => void)[] = [];
  const client = {
    request(request: ApiRequest): Promise<ApiResponse> {
      const page = Number((request.query as URLSearchParams).get('page'));
      asked.push(page);
      most = Math.max(most, ++inFlight);
      request.onSent?.();
      for (const wake of arrived.splice(0)) wake();
      return new Promise((resolve) =>
        waiting.set(page, () => {
          inFlight--;
          const data = Array.from({ length: PER_PAGE }, (_, i) => ({ id: (page - 1) * PER_PAGE + i + 1 }));
          const text = JSON.stringify({
            data,
            meta: { current_page: page, last_page: pages, total: pages * PER_PAGE },
          });
          resolve({ status: 200, headers: {}, text, json: <T>() => JSON.parse(text) as T });
        }),
      );
    },
    mayStart: (wanted: number, running: number) => mayStart(wanted, running, room?.()),
  };
  /** Settles once `page` has been asked for. */
  const askedFor = async (page: number) => {
    while (!asked.includes(page)) await new Promise<void>((resolve) => arrived.push(resolve));
  };
  const answer = async (page: number) => {
    await askedFor(page);
    waiting.get(page)!();
  };
  return { client, asked, answer, askedFor, inFlight: () => inFlight, most: () => most };
}

const options = (concurrency: number): PageOptions => ({ all: true, perPage: PER_PAGE, concurrency });

async function drain(server: ReturnType<typeof heldServer>, pages: AsyncGenerator<{ records: unknown[] }>) {
  const ids: unknown[] = [];
  for await (const page of pages) ids.push(...page.records.map((record) => (record as { id: number }).id));
  return ids;
}

describe('pages in flight', () => {
  it('never more than --concurrency, and one ahead until a second page has checked out', async () => {
    const server = heldServer(12);
    const run = drain(server, paginate(server.client, '/v1/customers', [], options(3)));
    await server.answer(1);
    await server.askedFor(2);
    expect(server.inFlight()).toBe(1);
    await server.answer(2);
    for (let page = 3; page <= 12; page++) {
      await server.askedFor(Math.min(page + 2, 12));
      expect(server.inFlight()).toBeLessThanOrEqual(3);
      await server.answer(page);
    }
    expect(await run).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(server.most()).toBe(3);
    expect(server.asked).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('never more than the rate-limit budget has room for; one at a time when it is spent', async () => {
    let room = 2;
    const server = heldServer(8, () => room);
    const run = drain(server, paginate(server.client, '/v1/customers', [], options(6)));
    await server.answer(1);
    await server.answer(2);
    await server.askedFor(4);
    expect(server.inFlight()).toBe(2);
    room = 0;
    await server.answer(3);
    await server.answer(4);
    for (let page = 5; page <= 8; page++) {
      await server.askedFor(page);
      expect(server.inFlight()).toBe(1);
      await server.answer(page);
    }
    expect(await run).toHaveLength(80);
    expect(server.most()).toBe(2);
  });

  it('records keep page order when later pages are answered first', async () => {
    const server = heldServer(6);
    const run = drain(server, paginate(server.client, '/v1/customers', [], options(4)));
    await server.answer(1);
    await server.answer(2);
    for (const page of [6, 5, 4, 3]) await server.answer(page);
    expect(await run).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });

  it('a slow writer holds at most --concurrency pages besides the one it writes', async () => {
    const server = heldServer(20);
    const pages = paginate(server.client, '/v1/customers', [], options(2));
    const first = pages.next(); // a generator starts when first asked
    await server.answer(1);
    await first;
    const second = pages.next();
    await server.answer(2);
    await second;
    // The writer sits on page 2; every page the server was asked for is answered at once.
    for (let page = 3; page <= 4; page++) await server.answer(page);
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.asked).toEqual([1, 2, 3, 4]);
    await pages.return(undefined);
  });

  it('--concurrency 1 keeps one page ahead, as before', async () => {
    const server = heldServer(4);
    const run = drain(server, paginate(server.client, '/v1/customers', [], options(1)));
    for (let page = 1; page <= 4; page++) await server.answer(page);
    expect(await run).toHaveLength(40);
    expect(server.most()).toBe(1);
  });
});

/**
 * A server that answers at once and logs what the export does: `ask N` when page N is asked for, `read N` when its
 * body is parsed. `lastPage(page)` is what page N says the last page is.
 */
function loggingServer(lastPage: (page: number) => number) {
  const log: string[] = [];
  const client = {
    request(request: ApiRequest): Promise<ApiResponse> {
      const page = Number((request.query as URLSearchParams).get('page'));
      log.push(`ask ${page}`);
      request.onSent?.();
      const data = Array.from({ length: PER_PAGE }, (_, i) => ({ id: (page - 1) * PER_PAGE + i + 1 }));
      const text = JSON.stringify({ data, meta: { current_page: page, last_page: lastPage(page) } });
      const json = <T>() => {
        log.push(`read ${page}`);
        return JSON.parse(text) as T;
      };
      return Promise.resolve({ status: 200, headers: {}, text, json });
    },
  };
  return { client, log };
}

async function ids(pages: AsyncGenerator<{ records: unknown[] }>) {
  const out: number[] = [];
  for await (const page of pages) out.push(...page.records.map((record) => (record as { id: number }).id));
  return out;
}

describe('pages known to exist leave before a page is read', () => {
  it('once two pages have checked out, the next page is asked for before this one is parsed', async () => {
    const server = loggingServer(() => 5);
    expect(await ids(paginate(server.client, '/v1/customers', [], options(1)))).toHaveLength(50);
    const reads = server.log.filter((line) => line.startsWith('read'));
    expect(reads).toEqual(['read 1', 'read 2', 'read 3', 'read 4', 'read 5']);
    const at = (line: string) => server.log.indexOf(line);
    // The first two pages are read before the next is asked for: a server whose pages never end costs two requests.
    expect(at('ask 2')).toBeGreaterThan(at('read 1'));
    expect(at('ask 3')).toBeGreaterThan(at('read 2'));
    for (const page of [3, 4]) expect(at(`ask ${page + 1}`)).toBeLessThan(at(`read ${page}`));
    expect(server.log.filter((line) => line.startsWith('ask'))).toHaveLength(5);
  });

  it('a page that says fewer pages exist ends the export there, at the cost of one request', async () => {
    const server = loggingServer((page) => (page < 4 ? 9 : 4));
    expect(await ids(paginate(server.client, '/v1/customers', [], options(1)))).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect(server.log.filter((line) => line.startsWith('ask'))).toEqual([
      'ask 1',
      'ask 2',
      'ask 3',
      'ask 4',
      'ask 5',
    ]);
  });

  it('never asks for a page --limit cannot need, whatever the pages hold', async () => {
    for (const [limit, pages] of [
      [25, 3],
      [30, 3],
      [31, 4],
      [40, 4],
    ] as const) {
      for (const concurrency of [1, 3]) {
        const server = loggingServer(() => 9);
        const run = paginate(server.client, '/v1/customers', [], { limit, perPage: PER_PAGE, concurrency });
        expect((await ids(run)).length).toBeGreaterThanOrEqual(limit);
        const asked = server.log.filter((line) => line.startsWith('ask'));
        expect(asked, `--limit ${limit} --concurrency ${concurrency}`).toEqual(
          Array.from({ length: pages }, (_, i) => `ask ${i + 1}`),
        );
      }
    }
  });
});

describe('a collection that changes while it is paged', () => {
  /** Pages answered a turn later, counting the most in flight at once; `total(page)` is what page N says. */
  function turningServer(pages: number, total: (page: number) => number) {
    let inFlight = 0;
    let most = 0;
    const client = {
      request(request: ApiRequest): Promise<ApiResponse> {
        const page = Number((request.query as URLSearchParams).get('page'));
        most = Math.max(most, ++inFlight);
        request.onSent?.();
        const data = Array.from({ length: PER_PAGE }, (_, i) => ({ id: (page - 1) * PER_PAGE + i + 1 }));
        const text = JSON.stringify({
          data,
          meta: { current_page: page, last_page: pages, total: total(page) },
        });
        return new Promise((resolve) =>
          setImmediate(() => {
            inFlight--;
            resolve({ status: 200, headers: {}, text, json: <T>() => JSON.parse(text) as T });
          }),
        );
      },
    };
    return { client, most: () => most };
  }

  it('is followed one page at a time once its total moves (pages served out of order would skip records)', async () => {
    const moving = turningServer(12, (page) => 120 + page);
    expect(await ids(paginate(moving.client, '/v1/customers', [], options(4)))).toHaveLength(120);
    expect(moving.most()).toBe(1);
    const still = turningServer(12, () => 120);
    expect(await ids(paginate(still.client, '/v1/customers', [], options(4)))).toHaveLength(120);
    expect(still.most()).toBe(4);
  });
});

describe('mayStart (the decision bulk runs share)', () => {
  it('fills up to what is wanted when the budget is unknown', () => {
    expect(mayStart(4, 0, undefined)).toBe(4);
    expect(mayStart(4, 3, undefined)).toBe(1);
    expect(mayStart(4, 4, undefined)).toBe(0);
  });

  it('never more than the room left, and always one when nothing is in flight', () => {
    expect(mayStart(8, 0, 3)).toBe(3);
    expect(mayStart(8, 2, 1)).toBe(1);
    expect(mayStart(8, 2, 0)).toBe(0);
    expect(mayStart(8, 0, 0)).toBe(1);
    expect(mayStart(1, 0, 100)).toBe(1);
  });
});
