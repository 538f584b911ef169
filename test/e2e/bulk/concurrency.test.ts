// Bulk runs with several requests in flight (--concurrency N) against a sandbox: every record sent once and reported
// in file order, every one journaled; at the rate-limit ceiling still not a single 429.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { customersOnServer, lines, startWorld } from '../../helpers/cli.js';
import { useWorld } from '../../helpers/world.js';

const world = useWorld(() => startWorld({ erasureStepSeconds: 0, rateWindowSeconds: 2 }));
let tag = '';
beforeEach(() => {
  tag = `conc${Date.now() % 1000000}`;
  world.sandbox.setFaults(undefined);
  world.sandbox.setRateLimit(0);
});

const upTo = (count: number) => Array.from({ length: count }, (_, i) => i + 1);
const person = (n: number): object => ({
  first_name: `P${n}`,
  last_name: 'Conc',
  email: `${tag}.${n}@example.com`,
});
/** An NDJSON file whose line n holds `record(n)` (a patient of this test by default), and its path. */
async function patients(name: string, count: number, record = person) {
  const path = join(world.configDir, `${tag}-${name}.ndjson`);
  await writeFile(
    path,
    upTo(count)
      .map((n) => JSON.stringify(record(n)))
      .join('\n') + '\n',
  );
  return path;
}
const rowsOf = (stdout: string) => lines(stdout).map((line) => JSON.parse(line));

describe('--concurrency N', () => {
  it('each record created once, results in file order, a "sending" line for each in the journal', async () => {
    const path = await patients('a', 30, (n) => (n === 7 ? { first_name: 'NoLast' } : person(n)));
    const result = await world.clinic(['customers', 'create', '--from', path, '--concurrency', '6']);
    expect(result.code, result.stderr).toBe(1); // line 7 is refused (422)
    const rows = rowsOf(result.stdout);
    expect(rows.map((r) => r.line)).toEqual(upTo(30));
    expect(rows.filter((r) => r.status !== 'ok').map((r) => [r.line, r.http_status])).toEqual([[7, 422]]);
    const server = await customersOnServer(world, tag);
    expect(server.size).toBe(29);
    expect([...server.values()].every((count) => count === 1)).toBe(true);
    const journal = (await readFile(`${path}.journal`, 'utf8'))
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line));
    const sending = journal.filter((e) => e.state === 'sending').map((e) => e.line);
    expect(sending.sort((a, b) => a - b)).toEqual(upTo(30));
  }, 60_000);

  it('--concurrency 8 over a budget of 5: paced, not a single 429 (not even before the first answer)', async () => {
    world.sandbox.setRateLimit(5); // 5 requests per 2-second window (rateWindowSeconds above)
    const path = await patients('m', 20);
    const result = await world.clinic([
      'customers',
      'create',
      '--from',
      path,
      '--concurrency',
      '8',
      '--max-retries',
      '0',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const rows = rowsOf(result.stdout);
    expect(rows.map((r) => r.line)).toEqual(upTo(20));
    expect(rows.every((r) => r.status === 'ok')).toBe(true);
    expect(result.stderr).not.toContain('429');
  }, 60_000);
});
