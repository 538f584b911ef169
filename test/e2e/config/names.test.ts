// Profiles named like keys of Object.prototype work as any other, end to end: config, sign-in, token, status.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, lines, runCli } from '../../helpers/cli.js';
import { type FakeApi, startFakeApi } from '../../helpers/fake-api.js';

const NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

let api: FakeApi;
let dir: string;
const clinic = (args: string[], input?: string): Promise<CliResult> => runCli(dir, args, { input });
const ok = (result: CliResult): CliResult => {
  expect(result.stderr.includes('error:') ? result.stderr : '').toBe('');
  expect(result.code).toBe(0);
  return result;
};

beforeAll(async () => {
  api = await startFakeApi();
  dir = await api.configDir(); // current profile `fake`, tenant 1
});
afterAll(() => api.close());

describe('a profile named like a key of Object.prototype', () => {
  it.each(NAMES.map((name, i) => [name, i + 2]))(
    '%s: config set/get/list, use-profile, login --with-token, auth token and status',
    async (name, tenant) => {
      const as = ['--profile', name];
      ok(await clinic([...as, 'config', 'set', 'base_url', api.baseUrl]));
      ok(await clinic([...as, 'config', 'set', 'tenant', String(tenant)]));
      expect(ok(await clinic([...as, 'config', 'get', 'tenant'])).stdout).toBe(`${tenant}\n`);
      const listed = JSON.parse(ok(await clinic([...as, 'config', 'list', '-o', 'json'])).stdout);
      expect(listed).toContainEqual({
        key: 'tenant',
        value: String(tenant),
        source: 'profile',
        profile: name,
      });

      const login = ok(
        await clinic([...as, 'login', '--with-token', '--insecure-storage'], `token-of-${name}\n`),
      );
      expect(login.stderr).toContain(`(profile ${name})`);
      expect(ok(await clinic([...as, 'auth', 'token'])).stdout).toBe(`token-of-${name}\n`);
      const status = JSON.parse(ok(await clinic([...as, 'auth', 'status', '-o', 'json'])).stdout);
      expect(status).toMatchObject({ profile: name });

      // Chosen with use-profile, the name needs no flag.
      expect(lines(ok(await clinic(['config', 'use-profile', name])).stderr)).toEqual([
        `current profile: ${name}`,
      ]);
      expect(ok(await clinic(['config', 'get', 'tenant'])).stdout).toBe(`${tenant}\n`);
      expect(ok(await clinic(['auth', 'token'])).stdout).toBe(`token-of-${name}\n`);
      ok(await clinic(['config', 'use-profile', 'fake']));
    },
  );

  it('each kept its own settings and sign-in, and the first profile is untouched', async () => {
    const profiles = JSON.parse(ok(await clinic(['config', 'profiles', '-o', 'json'])).stdout);
    expect(profiles.map((p: { name: string }) => p.name).sort()).toEqual([...NAMES, 'fake'].sort());
    for (const [i, name] of NAMES.entries()) {
      expect(profiles.find((p: { name: string }) => p.name === name)).toMatchObject({
        base_url: api.baseUrl,
        tenant: String(i + 2),
      });
      expect(ok(await clinic(['--profile', name, 'auth', 'token'])).stdout).toBe(`token-of-${name}\n`);
    }
    expect(ok(await clinic(['config', 'get', 'tenant'])).stdout).toBe('1\n');
    const fake = await clinic(['auth', 'token']);
    expect(fake.code).toBe(3); // `fake` never signed in: no other profile's token leaks to it
    const credentials = JSON.parse(await readFile(join(dir, 'credentials.json'), 'utf8'));
    expect(Object.keys(credentials).sort()).toEqual([...NAMES].sort());
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
    expect(Object.keys(config.profiles).sort()).toEqual([...NAMES, 'fake'].sort());
  });

  it('logout of one leaves the others signed in', async () => {
    ok(await clinic(['--profile', '__proto__', 'logout']));
    expect((await clinic(['--profile', '__proto__', 'auth', 'token'])).code).toBe(3);
    expect(ok(await clinic(['--profile', 'constructor', 'auth', 'token'])).stdout).toBe(
      'token-of-constructor\n',
    );
  });

  it('an empty name is refused with exit 2, before anything is written', async () => {
    const before = await readFile(join(dir, 'config.json'), 'utf8');
    for (const args of [
      ['--profile', '', 'config', 'set', 'tenant', '9'],
      ['config', 'use-profile', ''],
    ]) {
      const result = await clinic(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(lines(result.stderr)).toEqual([expect.stringMatching(/^error: an empty profile name/)]);
    }
    expect(await readFile(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('a hand-edited config.json with __proto__ keys is read as data', async () => {
    const file = join(dir, 'config.json');
    await writeFile(
      file,
      JSON.stringify({
        current_profile: 'fake',
        profiles: { fake: { tenant: '1', base_url: api.baseUrl } },
      }).replace('"tenant"', '"__proto__": {"tenant": "666", "output": "csv"}, "tenant"'),
    );
    expect(ok(await clinic(['config', 'get', 'tenant'])).stdout).toBe('1\n');
    const missing = await clinic(['config', 'get', 'output']);
    expect(missing.code).toBe(1);
    ok(await clinic(['config', 'set', 'realtime.key', 'k']));
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(Object.hasOwn(saved.profiles.fake, '__proto__')).toBe(true);
    expect(saved.profiles.fake.realtime).toEqual({ key: 'k' });
  });
});
