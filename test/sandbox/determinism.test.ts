// Seeded data: equal seeds replay identical answers, other seeds and record counts change them.
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { allCustomers, call } from './client.js';

const started: RunningSandbox[] = [];
async function sandbox(seed: number, records = 40) {
  const running = await startSandbox({ port: 0, seed, records, rateLimit: 0 });
  started.push(running);
  return running;
}

afterAll(async () => {
  await Promise.all(started.map((running) => running.close()));
});

describe('seeded data', () => {
  it('gives identical customer lists for the same seed', async () => {
    const first = await sandbox(7);
    const second = await sandbox(7);
    for (const tenant of [1, 2]) {
      const a = await call(first, '/v1/customers?per_page=100', { tenant });
      const b = await call(second, '/v1/customers?per_page=100', { tenant });
      expect(a.status).toBe(200);
      expect(a.body.data).toHaveLength(40);
      // Byte-identical apart from the port inside the pagination URLs.
      expect(a.text.replaceAll(String(first.port), 'PORT')).toBe(
        b.text.replaceAll(String(second.port), 'PORT'),
      );
    }
  });

  it('gives identical records of every other kind for the same seed', async () => {
    const first = await sandbox(7);
    const second = await sandbox(7);
    const paths = [
      '/v1/appointments?per_page=100',
      '/v1/channels',
      '/v1/conversations/1/messages',
      '/v1/conversations/2/messages/9',
      '/v1/announcements/4',
      ...[1, 2, 3, 4, 5, 6, 7].map((id) => `/v1/data-erasure-requests/${id}`),
    ];
    for (const path of paths) {
      const a = await call(first, path);
      const b = await call(second, path);
      expect(a.status, path).toBe(200);
      expect(a.text.replaceAll(String(first.port), 'PORT')).toBe(
        b.text.replaceAll(String(second.port), 'PORT'),
      );
    }
    expect(first.fixtures).toEqual(second.fixtures);
    const sales = async (running: RunningSandbox) =>
      (await call(running, '/v1/sales/1/stock-deduct', { method: 'POST' })).body.data.items;
    expect(await sales(first)).toEqual(await sales(second));
  });

  it('serves every list even with no customers at all', async () => {
    const empty = await sandbox(1, 0);
    for (const path of [
      '/v1/customers',
      '/v1/appointments',
      '/v1/data-erasure-requests',
      '/v1/conversations/1/messages',
    ]) {
      expect((await call(empty, path)).status, path).toBe(200);
    }
    const pending = await call(empty, '/v1/data-erasure-requests/1');
    expect(pending.body.data).toMatchObject({ customer_id: null });
    expect(pending.body.data).not.toHaveProperty('customer');
  });

  it('gives different customers for a different seed', async () => {
    const a = await allCustomers(await sandbox(7));
    const b = await allCustomers(await sandbox(8));
    expect(a.map((c) => c.id)).toEqual(b.map((c) => c.id));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(b));
  });

  it('takes seeded timestamps from a fixed epoch, not the clock', async () => {
    const customers = await allCustomers(await sandbox(7));
    for (const customer of customers) {
      expect(customer.created_at).toMatch(/^2026-\d{2}-\d{2}T\d{2}:\d{2}:00\.000000Z$/);
    }
  });

  it('creates `records` customers per tenant with ids unique and increasing across tenants', async () => {
    const small = await sandbox(3, 5);
    const one = await allCustomers(small, { tenant: 1 });
    const two = await allCustomers(small, { tenant: 2 });
    expect(one.map((c) => c.id)).toEqual([1, 2, 3, 4, 5]);
    expect(two.map((c) => c.id)).toEqual([6, 7, 8, 9, 10]);
    expect(two.every((c) => c.tenant_id === 2)).toBe(true);
  });

  it('seeds values that need CSV quoting', async () => {
    const running = await sandbox(1);
    const customers = [
      ...(await allCustomers(running, { tenant: 1 })),
      ...(await allCustomers(running, { tenant: 2 })),
    ];
    const texts = customers
      .flatMap((c) => [c.first_name, c.last_name, c.notes])
      .filter((t) => typeof t === 'string');
    expect(texts.some((t) => t.includes(','))).toBe(true);
    expect(texts.some((t) => t.includes('"') || t.includes("'"))).toBe(true);
  });
});
