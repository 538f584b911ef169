// Bulk runs with several requests in flight (--concurrency N) against a sandbox: every record sent once and reported
// in file order, every one journaled; at the rate-limit ceiling still not a single 429.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { customersOnServer, lines, startWorld } from '../../helpers/cli.js';
import { useWorld } from '../../helpers/world.js';

const world = useWorld(() => startWorld({ erasureStepSeconds: 0, rateWindowSeconds: 2 }));
let run = 0;
let tag: string;
beforeEach(() => {
  tag = `conc${++run}x${Date.now() % 100000}`;
  world.sandbox.setFaults(undefined);
  world.sandbox.setRateLimit(0);
});

const file = (name: string) => join(world.configDir, `${tag}-${name}`);
const patient = (n: number) => ({ first_name: `P${n}`, last_name: 'Bulk', email: `${tag}.${n}@example.com` });
const ndjson = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const results = (stdout: string) => lines(stdout).map((line) => JSON.parse(line));
const upTo = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

describe('--concurrency N', () => {
  it('each record created once, results in file order, a "sending" line for each in the journal', async () => {
    const records = upTo(30).map((n) => (n === 7 ? { first_name: 'NoLast' } : patient(n)));
    await writeFile(file('a.ndjson'), ndjson(records));
    const result = await world.clinic([
      'customers',
      'create',
      '--from',
      file('a.ndjson'),
      '--concurrency',
      '6',
    ]);
    expect(result.code, result.stderr).toBe(1); // line 7 is refused (422)
    const rows = results(result.stdout);
    expect(rows.map((r) => r.line)).toEqual(upTo(30));
    expect(rows.filter((r) => r.status !== 'ok').map((r) => [r.line, r.http_status])).toEqual([[7, 422]]);
    const server = await customersOnServer(world, tag);
    expect(server.size).toBe(29);
    expect([...server.values()].every((count) => count === 1)).toBe(true);
    const journal = (await readFile(`${file('a.ndjson')}.journal`, 'utf8'))
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line));
    const sending = journal.filter((e) => e.state === 'sending').map((e) => e.line);
    expect(sending.sort((a, b) => a - b)).toEqual(upTo(30));
  }, 60_000);

  it('--concurrency 8 over a budget of 5: paced, not a single 429 (not even before the first answer)', async () => {
    world.sandbox.setRateLimit(5); // 5 requests per 2-second window (rateWindowSeconds above)
    await writeFile(file('m.ndjson'), ndjson(upTo(20).map(patient)));
    const result = await world.clinic([
      'customers',
      'create',
      '--from',
      file('m.ndjson'),
      '--concurrency',
      '8',
      '--max-retries',
      '0',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const rows = results(result.stdout);
    expect(rows.map((r) => r.line)).toEqual(upTo(20));
    expect(rows.every((r) => r.status === 'ok')).toBe(true);
    expect(result.stderr).not.toContain('429');
  }, 60_000);
});
