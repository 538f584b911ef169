// Fault run: a 20,000-record `--all` export under injected 5xx, 429, resets and slow answers equals the sandbox's
// records exactly: the same ids, in order, with the same content; nothing lost, nothing doubled.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lines, startWorld, type TestWorld } from '../helpers/cli.js';
import { FAULT_SEED, REST_FAULTS, replayHint } from './fault-seed.js';

const RECORDS = 20_000;
let world: TestWorld;
beforeAll(async () => {
  world = await startWorld({ records: RECORDS, seed: FAULT_SEED, erasureStepSeconds: 0 });
}, 60_000);
afterAll(() => world?.close());

/** Every customer of tenant 1, read page by page straight from the sandbox (faults off). */
async function serverRecords(): Promise<unknown[]> {
  const { base_url, token } = world.sandbox.info;
  const all: unknown[] = [];
  for (let page = 1; ; page++) {
    const answer = await fetch(`${base_url}/v1/customers?per_page=100&page=${page}`, {
      headers: { authorization: `Bearer ${token}`, 'x-tenant': '1', accept: 'application/json' },
    });
    const body = (await answer.json()) as { data: unknown[]; meta: { last_page: number } };
    all.push(...body.data);
    if (page >= body.meta.last_page) return all;
  }
}

it('an --all export under 5xx, 429, reset and slow faults exits 0 and equals the server exactly', async () => {
  world.sandbox.setFaults(REST_FAULTS);
  const before = world.sandbox.requests.length;
  const result = await world.clinic(['customers', 'list', '--all', '--per-page', '100', '-o', 'ndjson']);
  world.sandbox.setFaults(undefined);
  const sent = world.sandbox.requests.slice(before).filter((r) => r.path.endsWith('/v1/customers'));
  const retried = sent.length - RECORDS / 100;
  console.log(
    `export under faults: ${sent.length} requests for 200 pages (${retried} retried), seed ${FAULT_SEED}`,
  );

  expect(result.code, replayHint(result.stderr)).toBe(0);
  expect(retried, 'the faults did strike').toBeGreaterThan(10);
  const exported = lines(result.stdout).map((line) => JSON.parse(line) as { id: number });
  const expected = await serverRecords();
  expect(expected).toHaveLength(RECORDS);
  expect(exported.map((r) => r.id)).toEqual(expected.map((r) => (r as { id: number }).id));
  expect(exported, replayHint('content differs')).toEqual(expected);
}, 240_000);
