// -q, --quiet for cron: a run that meets server faults, retries and rate-limit waits writes nothing on stderr and the
// same stdout; a failure still says what failed.
import { describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/world.js';
import { startWorld } from '../../helpers/cli.js';

// Seed 7: its fault sequence below never fails one request five times running (seed 1's does, at the 4th).
const world = useWorld(() => startWorld({ rateWindowSeconds: 2, seed: 7 }));

/** Every customer of the tenant as CSV, two a page, through 5xx and 429 answers and a tight rate limit. */
async function exportThroughFaults(extra: string[]) {
  world.sandbox.setRateLimit(8); // 8 requests per 2-second window
  world.sandbox.setFaults('5xx=0.1,429=0.1'); // the same sequence of faults for each run
  try {
    return await world.clinic(['customers', 'list', '--all', '--per-page', '2', '-o', 'csv', ...extra]);
  } finally {
    world.sandbox.setFaults(undefined);
    world.sandbox.setRateLimit(0);
  }
}

describe('--quiet', () => {
  it('a run with retries and rate-limit waits: nothing on stderr, the same stdout', async () => {
    const told = await exportThroughFaults([]);
    expect(told.code, told.stderr).toBe(0);
    // The run meets what --quiet must silence...
    expect(told.stderr).toMatch(/retrying in/);
    expect(told.stderr).toMatch(/waiting \d+s for the rate-limit window to reset/);
    // ...and with it says nothing, and writes the same data.
    expect(await exportThroughFaults(['-q'])).toEqual({ code: 0, stdout: told.stdout, stderr: '' });
  }, 60_000);

  it('a failure still prints its error line and exits with its code', async () => {
    const missing = await world.clinic(['-q', 'customers', 'get', '999999']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/^error: .*\(HTTP 404/);
    const usage = await world.clinic(['customers', 'list', '--per-page', '500', '--quiet']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^error: /);
  });

  it('notes of a successful command are silenced: config set, an empty table', async () => {
    expect(await world.clinic(['config', 'set', 'output', 'json', '-q'])).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    const empty = await world.clinic([
      '-q',
      'customers',
      'list',
      '--filter',
      'search=nobody-at-all',
      '-o',
      'table',
    ]);
    expect(empty).toEqual({ code: 0, stdout: expect.any(String), stderr: '' });
    await world.clinic(['config', 'unset', 'output']);
  });
});
