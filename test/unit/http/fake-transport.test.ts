// The fake transport the in-process tests stand on: routes answered in order, unrouted requests refused, and
// verify() failing on a route never used.
import { describe, expect, it } from 'vitest';
import { FakeTransport } from '../../helpers/fake-transport.js';
import { readCapped } from '../../../src/core/http/transport/exchange.js';

const get = (fake: FakeTransport, path: string) =>
  fake.request({ origin: 'https://h.test', path, method: 'GET', headers: { 'X-A': '1' } });

describe('FakeTransport', () => {
  it('answers routes in order and records each request', async () => {
    const fake = new FakeTransport()
      .on('GET', '/a', { status: 200, body: 'one' })
      .on('GET', '/a', { status: 503 });
    const first = await get(fake, '/a');
    expect(first.statusCode).toBe(200);
    expect(await readCapped(first.body, 'https://h.test/a', 100)).toBe('one');
    expect((await get(fake, '/a')).statusCode).toBe(503);
    expect(fake.requests.map((r) => [r.method, r.path, r.headers['x-a']])).toEqual([
      ['GET', '/a', '1'],
      ['GET', '/a', '1'],
    ]);
    fake.verify();
  });

  it('refuses a request no route answers, and fails a route with an Error', async () => {
    const reset = Object.assign(new Error('reset'), { code: 'ECONNRESET' });
    const fake = new FakeTransport().on('GET', /^\/b/, reset);
    await expect(get(fake, '/a')).rejects.toMatchObject({ code: 'FAKE_NO_ROUTE' });
    await expect(get(fake, '/b?x=1')).rejects.toBe(reset);
  });

  it('verify() names the routes never used; a persistent route counts once used', async () => {
    const fake = new FakeTransport()
      .on('GET', '/a', { status: 200 })
      .on('GET', '/p', { status: 200 }, { persist: true });
    expect(() => fake.verify()).toThrow(/GET \/a\n\s+GET \/p/);
    await get(fake, '/p');
    await get(fake, '/p');
    expect(fake.pending()).toEqual(['GET /a']);
    await get(fake, '/a');
    fake.verify();
  });
});
