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
