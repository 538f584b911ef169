// Exports overlap the network with the writing: the request for page N+1 reaches the server while the writer of page
// N is blocked (stdout a terminal nobody reads); --concurrency N keeps the output the same; 0 and 33 are refused.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { posixQuote } from '../../../src/cli/completion/quote.js';
import { BIN, baseEnv, collectOutput, lines, runCli } from '../../helpers/cli.js';
import { useFakeRealtime } from '../../helpers/fake-realtime.js';

const PAGES = 3;
const PER_PAGE = 100;
// Some 20 KiB a record: one page (2 MiB) is far more than a terminal, `script` and the reader's buffers hold.
const BIG_PADDING = 20_000;

const realtime = useFakeRealtime('clinic-pages-on-the-wire-');

const customers = (size: number) => (path: string, query: URLSearchParams) => {
  if (path !== '/v1/customers') return undefined;
  const page = Number(query.get('page'));
  const padding = 'x'.repeat(size);
  const data = Array.from({ length: PER_PAGE }, (_, i) => ({ id: (page - 1) * PER_PAGE + i + 1, padding }));
  return {
    data,
    meta: { current_page: page, last_page: PAGES, per_page: PER_PAGE, total: PAGES * PER_PAGE },
  };
};

const pageAsked = (page: number) =>
  realtime.fake.requests.some((request) => request.includes(`page=${page}&`));

describe('the next page is on the wire before a page is written', () => {
  it('page 2 reaches the server while the writer of page 1 is blocked on a terminal nobody reads', async () => {
    const fake = await realtime.start(customers(BIG_PADDING));
    // A terminal, written synchronously: a writer blocked there blocks the CLI's whole event loop, so a request
    // still waiting for a turn of it cannot leave. `script` gives the pty; its own stdout, paused, stops it reading.
    const argv = [process.execPath, BIN, '--concurrency', '1', 'customers', 'list', '--all', '-o', 'ndjson'];
    const child = spawn('script', ['-q', '-e', '-c', `exec ${argv.map(posixQuote).join(' ')}`, '/dev/null'], {
      env: { ...baseEnv(realtime.configDir), ...fake.env, TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout.pause();
    child.stderr.resume();
    // Wait (no deadline of our own: the test's timeout is the bound) until page 2 has been asked for.
    while (!pageAsked(2)) await new Promise((resolve) => setTimeout(resolve, 50));
    // Nobody has read the terminal: the CLI is still writing page 1, far larger than what the terminal holds.
    expect(child.exitCode).toBeNull();
    expect(child.stdout.readableLength).toBeLessThan(PER_PAGE * BIG_PADDING);
    expect(pageAsked(3)).toBe(false);
    const output = collectOutput(child);
    child.stdout.resume();
    const { code, stdout } = await output;
    expect(code).toBe(0);
    const ids = stdout
      .split('\r\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line).id);
    expect(ids).toEqual(Array.from({ length: PAGES * PER_PAGE }, (_, i) => i + 1));
  });
});

describe('--concurrency', () => {
  it('several pages in flight write the same records in the same order', async () => {
    const fake = await realtime.start(customers(100));
    const env = { env: fake.env };
    const one = await runCli(
      realtime.configDir,
      ['--concurrency', '1', 'customers', 'list', '--all', '-o', 'ndjson'],
      env,
    );
    const three = await runCli(
      realtime.configDir,
      ['--concurrency', '3', 'customers', 'list', '--all', '-o', 'ndjson'],
      env,
    );
    expect(one.code).toBe(0);
    expect(three.code).toBe(0);
    expect(three.stdout).toBe(one.stdout);
    expect(lines(three.stdout)).toHaveLength(PAGES * PER_PAGE);
  });

  it.each(['0', '33'])('--concurrency %s is refused with exit 2 and nothing is sent', async (value) => {
    const fake = await realtime.start(customers(100));
    const { code, stdout, stderr } = await runCli(
      realtime.configDir,
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
