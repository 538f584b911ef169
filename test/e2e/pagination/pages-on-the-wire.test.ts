// Exports overlap the network with the writing: the request for page N+1 reaches the server while the writer of page
// N is blocked (stdout a full pipe nobody reads); --concurrency N keeps the output the same; 0 and 33 are refused.
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, collectOutput, lines, runCli, tempDir } from '../../helpers/cli.js';
import { type FakeRealtime, startFakeRealtime } from '../../helpers/fake-realtime.js';

const PAGES = 3;
const PER_PAGE = 100;
// Some 2 KiB a record: one page is far more than a pipe and the reader's buffer hold.
const padding = 'x'.repeat(2048);

let fake: FakeRealtime | undefined;
let root: string;
beforeAll(async () => {
  root = await tempDir('clinic-pages-on-the-wire-');
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(() => rm(root, { recursive: true, force: true }));

const customers = (path: string, query: URLSearchParams) => {
  if (path !== '/v1/customers') return undefined;
  const page = Number(query.get('page'));
  const data = Array.from({ length: PER_PAGE }, (_, i) => ({ id: (page - 1) * PER_PAGE + i + 1, padding }));
  return {
    data,
    meta: { current_page: page, last_page: PAGES, per_page: PER_PAGE, total: PAGES * PER_PAGE },
  };
};

const pageAsked = (page: number) => fake!.requests.some((request) => request.includes(`page=${page}&`));

describe('the next page is on the wire before a page is written', () => {
  it('page 2 reaches the server while the writer of page 1 is blocked on a full pipe', async () => {
    fake = await startFakeRealtime(customers);
    const child = spawn(
      process.execPath,
      [BIN, '--concurrency', '1', 'customers', 'list', '--all', '-o', 'ndjson'],
      { env: { ...baseEnv(join(root, 'config')), ...fake.env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.pause();
    // Wait (no deadline of our own: the test's timeout is the bound) until page 2 has been asked for.
    while (!pageAsked(2)) await new Promise((resolve) => setTimeout(resolve, 50));
    // Nobody has read stdout: the CLI is still writing page 1, which is larger than what the pipe could take.
    expect(child.exitCode).toBeNull();
    expect(child.stdout.readableLength).toBeLessThan(PER_PAGE * padding.length);
    expect(pageAsked(3)).toBe(false);
    const { code, stdout } = await collectOutput(child); // reads stdout again
    expect(code).toBe(0);
    expect(lines(stdout).map((line) => JSON.parse(line).id)).toEqual(
      Array.from({ length: PAGES * PER_PAGE }, (_, i) => i + 1),
    );
  });
});

describe('--concurrency', () => {
  it('several pages in flight write the same records in the same order', async () => {
    fake = await startFakeRealtime(customers);
    const env = { env: fake.env };
    const one = await runCli(
      join(root, 'config'),
      ['--concurrency', '1', 'customers', 'list', '--all', '-o', 'ndjson'],
      env,
    );
    const three = await runCli(
      join(root, 'config'),
      ['--concurrency', '3', 'customers', 'list', '--all', '-o', 'ndjson'],
      env,
    );
    expect(one.code).toBe(0);
    expect(three.code).toBe(0);
    expect(three.stdout).toBe(one.stdout);
    expect(lines(three.stdout)).toHaveLength(PAGES * PER_PAGE);
  });

  it.each(['0', '33'])('--concurrency %s is refused with exit 2 and nothing is sent', async (value) => {
    fake = await startFakeRealtime(customers);
    const { code, stdout, stderr } = await runCli(
      join(root, 'config'),
      ['--concurrency', value, 'customers', 'list', '--all'],
      { env: fake.env },
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(lines(stderr)).toHaveLength(1);
    expect(stderr).toMatch(/--concurrency/);
    expect(fake.requests).toEqual([]);
  });
});
