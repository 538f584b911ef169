// Bad input: one clear line on stderr, exit 2, and not a single request sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lines, runCli, startWorld, type TestWorld } from '../helpers/cli.js';

let world: TestWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

const cases: [string, string[], RegExp][] = [
  ['a non-numeric id', ['customers', 'get', 'abc'], /customer ID must be a positive whole number/],
  ['a zero id', ['customers', 'get', '0'], /positive whole number/],
  ['per-page above 100', ['customers', 'list', '--per-page', '101'], /--per-page must be between 1 and 100/],
  ['per-page 0', ['customers', 'list', '--per-page', '0'], /--per-page must be between 1 and 100/],
  ['a page of 0', ['customers', 'list', '--page', '0'], /--page must be at least 1/],
  ['an unknown format', ['customers', 'list', '-o', 'yaml'], /unknown output format 'yaml'/],
  ['--json against -o csv', ['customers', 'list', '--json', '-o', 'csv'], /disagree/],
  ['malformed --data', ['customers', 'create', '--data', '{"first_name":'], /--data is not valid JSON/],
  ['--data that is not an object', ['customers', 'create', '--data', '[1]'], /must be a JSON object/],
  ['a missing --data file', ['customers', 'create', '--data', '@/nonexistent/x.json'], /cannot read/],
  ['a bad --set', ['customers', 'create', '--set', 'novalue'], /--set expects key=value/],
  ['a bad --filter', ['customers', 'list', '--filter', 'oops'], /--filter expects key=value/],
  ['paging given as a filter', ['customers', 'list', '--filter', 'per_page=5'], /use --per-page/],
  ['a bad --fields path', ['customers', 'list', '--fields', 'a..b'], /is not a field path/],
  [
    'a bad --max-retries',
    ['customers', 'list', '--max-retries', 'many'],
    /--max-retries must be a whole number/,
  ],
  ['an unknown option', ['customers', 'list', '--colour'], /unknown option/],
  ['an unknown command', ['customer', 'list'], /unknown command/],
  ['a missing argument', ['customers', 'get'], /missing required argument/],
  [
    'a bad tenant flag',
    ['customers', 'list', '--tenant', 'north'],
    /--tenant: tenant must be a positive whole number/,
  ],
  ['an absolute api URL', ['api', 'https://evil.example/v1/account'], /PATH must be relative/],
  ['an unknown config key', ['config', 'set', 'colour', 'blue'], /unknown config key 'colour'/],
  ['a bad base_url', ['config', 'set', 'base_url', 'ftp://x'], /base_url must be an http\(s\) URL/],
];

describe('refused before any request, exit 2', () => {
  for (const [what, args, message] of cases) {
    it(`${what}`, async () => {
      world.newRequests();
      const { code, stdout, stderr } = await world.clinic(args);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(lines(stderr)[0]).toMatch(message);
      expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(world.newRequests()).toEqual([]);
    });
  }

  it('no tenant for a tenant-scoped command', async () => {
    world.newRequests();
    await world.clinic(['config', 'unset', 'tenant']);
    try {
      const { code, stderr } = await world.clinic(['customers', 'list']);
      expect(code).toBe(2);
      expect(lines(stderr)).toEqual([
        "error: /v1/customers needs a tenant: pass --tenant ID, set CLINIC_TENANT, or run 'clinic tenants use ID'",
      ]);
      expect(world.newRequests()).toEqual([]);
    } finally {
      await world.clinic(['config', 'set', 'tenant', '1']);
    }
  });

  it('no API address configured', async () => {
    const { code, stderr } = await runCli(`${world.configDir}-empty`, ['account']);
    expect(code).toBe(2);
    expect(lines(stderr)).toHaveLength(1);
    expect(stderr).toContain('clinic sandbox start');
  });

  it('the noun alone shows help on stderr and exits 2', async () => {
    const { code, stderr } = await world.clinic(['customers']);
    expect(code).toBe(2);
    expect(stderr).toContain('Usage: clinic customers');
  });
});

describe('not logged in', () => {
  it('exits 3 and says how to sign in, without sending a request', async () => {
    const fresh = await startWorld({}, false);
    try {
      const { code, stderr } = await fresh.clinic(['customers', 'list']);
      expect(code).toBe(3);
      expect(lines(stderr)[0]).toBe('error: not logged in (profile sandbox)');
      expect(stderr).toContain('CLINIC_TOKEN');
      expect(fresh.newRequests()).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
