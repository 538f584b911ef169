// Laravel-style pagination of GET /v1/customers: meta, links, bounds and validation.
import { describe, expect, it } from 'vitest';
import { type RunningSandbox } from '../../src/sandbox/index.js';
import { call, sandboxForFile } from './client.js';

let sandbox: RunningSandbox;
let listUrl: string;
sandboxForFile(
  (running) => {
    sandbox = running;
    listUrl = `${sandbox.info.base_url}/v1/customers`;
  },
  { records: 40 },
);

const labels = (meta: { links: { label: string }[] }) => meta.links.map((link) => link.label);

describe('pagination', () => {
  it('describes the first page', async () => {
    const { status, body } = await call(sandbox, '/v1/customers');
    expect(status).toBe(200);
    // The document's paginated list is `data`, `links` and `meta`, without the `success` of single records.
    expect(Object.keys(body)).toEqual(['data', 'links', 'meta']);
    expect(body.data).toHaveLength(15);
    expect(body.data.map((c: { id: number }) => c.id)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(body.links).toEqual({
      first: `${listUrl}?page=1`,
      last: `${listUrl}?page=3`,
      prev: null,
      next: `${listUrl}?page=2`,
    });
    expect(body.meta).toEqual({
      current_page: 1,
      from: 1,
      to: 15,
      last_page: 3,
      per_page: 15,
      total: 40,
      path: listUrl,
      links: [
        { url: null, label: '&laquo; Previous', active: false },
        { url: `${listUrl}?page=1`, label: '1', active: true },
        { url: `${listUrl}?page=2`, label: '2', active: false },
        { url: `${listUrl}?page=3`, label: '3', active: false },
        { url: `${listUrl}?page=2`, label: 'Next &raquo;', active: false },
      ],
    });
  });

  it('describes a middle page', async () => {
    const { body } = await call(sandbox, '/v1/customers?page=2');
    expect(body.data[0].id).toBe(16);
    expect(body.links.prev).toBe(`${listUrl}?page=1`);
    expect(body.links.next).toBe(`${listUrl}?page=3`);
    expect(body.meta).toMatchObject({ current_page: 2, from: 16, to: 30, last_page: 3 });
    expect(body.meta.links.filter((link: { active: boolean }) => link.active)).toEqual([
      { url: `${listUrl}?page=2`, label: '2', active: true },
    ]);
  });

  it('ends with next null on the last page', async () => {
    const { body } = await call(sandbox, '/v1/customers?page=3');
    expect(body.data).toHaveLength(10);
    expect(body.links.next).toBeNull();
    expect(body.meta).toMatchObject({ current_page: 3, from: 31, to: 40, last_page: 3, total: 40 });
    expect(body.meta.links.at(-1)).toEqual({ url: null, label: 'Next &raquo;', active: false });
  });

  it('gives an empty page past the end', async () => {
    const { status, body } = await call(sandbox, '/v1/customers?page=9');
    expect(status).toBe(200);
    expect(body.data).toEqual([]);
    expect(body.links).toMatchObject({ prev: `${listUrl}?page=8`, next: null, last: `${listUrl}?page=3` });
    expect(body.meta).toMatchObject({ current_page: 9, from: null, to: null, last_page: 3, total: 40 });
  });

  it('keeps last_page at 1 when nothing matches', async () => {
    const { body } = await call(sandbox, '/v1/customers?search=zzzz-no-match');
    expect(body.data).toEqual([]);
    expect(body.meta).toMatchObject({ total: 0, last_page: 1, from: null, to: null });
    expect(body.links.next).toBeNull();
  });

  it('keeps per_page but drops filters from the links', async () => {
    const { body } = await call(
      sandbox,
      '/v1/customers?search=a&sort_by=last_name&sort_order=desc&per_page=5&page=2',
    );
    expect(body.meta.per_page).toBe(5);
    expect(body.links.next).toBe(`${listUrl}?per_page=5&page=3`);
    const urls = [
      ...Object.values(body.links),
      ...body.meta.links.map((link: { url: string | null }) => link.url),
    ];
    for (const url of urls.filter((u) => u !== null)) {
      expect(url).not.toMatch(/search|sort_by|sort_order/);
    }
  });

  it('windows the page links with gaps when there are many pages', async () => {
    const { body } = await call(sandbox, '/v1/customers?per_page=1&page=20');
    expect(body.meta.last_page).toBe(40);
    expect(labels(body.meta)).toEqual([
      '&laquo; Previous',
      '1',
      '2',
      '...',
      '17',
      '18',
      '19',
      '20',
      '21',
      '22',
      '23',
      '...',
      '39',
      '40',
      'Next &raquo;',
    ]);
    expect(body.meta.links[3]).toEqual({ url: null, label: '...', active: false });
  });

  it('answers 422 for per_page out of 1..100 or not an integer', async () => {
    for (const perPage of ['101', '0', 'abc', '2.5']) {
      const result = await call(sandbox, `/v1/customers?per_page=${perPage}`);
      expect(result.status).toBe(422);
      expect(result.body).toEqual({
        message: 'The per page field must be between 1 and 100.',
        errors: { per_page: ['The per page field must be between 1 and 100.'] },
      });
    }
  });

  it('answers 422 for a bad page, listing every bad field', async () => {
    expect((await call(sandbox, '/v1/customers?page=0')).body).toEqual({
      message: 'The page field must be at least 1.',
      errors: { page: ['The page field must be at least 1.'] },
    });
    const both = await call(sandbox, '/v1/customers?page=x&per_page=500&sort_by=email&sort_order=up');
    expect(both.status).toBe(422);
    expect(Object.keys(both.body.errors).sort()).toEqual(['page', 'per_page', 'sort_by', 'sort_order']);
    expect(both.body.message).toBe('The page field must be an integer. (and 3 more errors)');
  });
});
