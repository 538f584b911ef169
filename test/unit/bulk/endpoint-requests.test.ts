// Each bulk command sends, for one record, the very request its single form sends for the same input: both are
// run in-process against a FakeTransport and what reached the wire is compared.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeTransport } from '../../helpers/fake-transport.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { runInProcess } from '../../helpers/in-process.js';
import { fakeClock } from '../../helpers/fake-clock.js';
import { BASE_URL, newFakeTransport, queueReplies, type SeenRequest } from '../../helpers/mock-api.js';

let dir: string;
let env: Record<string, string>;
let agent: FakeTransport;
beforeEach(async () => {
  dir = await tempDir('clinic-endpoints-');
  env = { CLINIC_CONFIG_DIR: dir, CLINIC_BASE_URL: BASE_URL, CLINIC_TOKEN: 'tok', CLINIC_TENANT: '7' };
  agent = newFakeTransport();
});
afterEach(() => agent.verify());

/** Runs argv with one POST to `path` answered 201, and returns that request as sent. */
async function sent(argv: string[], path: string): Promise<Omit<SeenRequest, 'headers'>> {
  const seen: SeenRequest[] = [];
  queueReplies(agent, seen, 'POST', path, [{ status: 201, body: { success: true, data: { id: 9 } } }]);
  const result = await runInProcess(argv, { env, transport: agent, clock: fakeClock() });
  expect(result.stderr).not.toMatch(/^error:/m);
  expect(result.code).toBe(0);
  expect(seen).toHaveLength(1);
  const [{ method, path: sentPath, body }] = seen as [SeenRequest];
  return { method, path: sentPath, body };
}

async function bulk(command: string[], record: Record<string, unknown>, path: string, extra: string[] = []) {
  const file = join(dir, `records-${Math.random().toString(36).slice(2)}.ndjson`);
  await writeFile(file, `${JSON.stringify(record)}\n`);
  return sent([...command, '--from', file, ...extra], path);
}

const cases = [
  {
    name: 'customers create',
    single: [
      'customers',
      'create',
      '--data',
      '{"first_name":"Ada","phone":"+4912345","notes":{"a":[1,null]}}',
    ],
    record: { first_name: 'Ada', phone: '+4912345', notes: { a: [1, null] } },
    body: { first_name: 'Ada', phone: '+4912345', notes: { a: [1, null] } },
    path: '/api/v1/customers',
  },
  {
    name: 'customers create with --set',
    single: ['customers', 'create', '--set', 'first_name=Ada', '--set', 'address.city=Köln'],
    record: { first_name: 'Ada', address: { city: 'Köln' } },
    body: { first_name: 'Ada', address: { city: 'Köln' } },
    path: '/api/v1/customers',
  },
  {
    name: 'leads notes add',
    single: ['leads', 'notes', 'add', '5', '--content', 'called back; "fine"', '--user-id', '3'],
    record: { lead_id: 5, content: 'called back; "fine"', user_id: 3 },
    body: { content: 'called back; "fine"', user_id: 3 },
    path: '/api/v1/leads/5/notes',
  },
  {
    name: 'leads notes add without a user',
    single: ['leads', 'notes', 'add', '5', '--content', 'hello'],
    record: { lead_id: '5', content: 'hello' },
    body: { content: 'hello' },
    path: '/api/v1/leads/5/notes',
  },
  {
    name: 'erasure create',
    single: ['erasure', 'create', '--customer', '42', '--reason', 'asked by email', '--yes'],
    record: { customer_id: 42, request_reason: 'asked by email' },
    body: { customer_id: 42, request_reason: 'asked by email' },
    path: '/api/v1/data-erasure-requests',
    extra: ['--yes'],
  },
  {
    name: 'erasure create without a reason',
    single: ['erasure', 'create', '--customer', '42', '--yes'],
    record: { customer_id: '42' },
    body: { customer_id: 42, request_reason: null },
    path: '/api/v1/data-erasure-requests',
    extra: ['--yes'],
  },
];

describe('the single form and --from send the same request', () => {
  it.each(cases)('$name', async ({ single, record, body, path, extra }) => {
    const one = await sent(single, path);
    const command = single.slice(0, single[0] === 'leads' ? 3 : 2);
    const many = await bulk(command, record, path, extra);
    expect(many).toEqual(one);
    expect(one.method).toBe('POST');
    // The body's keys in the order sent: the shape the API document shows.
    expect(one.body).toBe(JSON.stringify(body));
  });
});
