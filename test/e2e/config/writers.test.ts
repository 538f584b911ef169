// Many clinic processes changing the config file at once each keep their change; the rate-limit budget learnt from
// one server never holds back a profile's requests to another.
import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPath } from '../../../src/core/config/config-file.js';
import { rateLimitFile } from '../../../src/core/config/paths.js';
import { BIN, baseEnv, runCli, tempConfigDir } from '../../helpers/cli.js';
import { type FakeAnswer, type FakeApi, type FakeRequest, startFakeApi } from '../../helpers/fake-api.js';

const run = promisify(execFile);

async function configOf(dir: string): Promise<{ profiles: Record<string, Record<string, unknown>> }> {
  return JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
}

async function parallel(dir: string, commands: string[][]): Promise<void> {
  const results = await Promise.all(commands.map((args) => runCli(dir, args)));
  for (const [i, result] of results.entries()) {
    expect(result.stderr, commands[i]!.join(' ')).not.toContain('error:');
    expect(result.code, commands[i]!.join(' ')).toBe(0);
  }
}

describe('parallel config writers', () => {
  it.each([12, 24])(
    '%i processes setting base_url on as many profiles: every profile is kept',
    async (count) => {
      const dir = await tempConfigDir();
      const url = (i: number) => `https://p${i}.example.test/api`;
      const names = Array.from({ length: count }, (_, i) => i);
      await parallel(
        dir,
        names.map((i) => ['--profile', `p${i}`, 'config', 'set', 'base_url', url(i)]),
      );
      const { profiles } = await configOf(dir);
      expect(Object.keys(profiles).sort()).toEqual(names.map((i) => `p${i}`).sort());
      for (const i of names) expect(profiles[`p${i}`]).toEqual({ base_url: url(i) });
      expect((await stat(join(dir, 'config.json'))).mode & 0o777).toBe(0o600);
    },
    180_000,
  );

  it('processes setting different keys of one profile, and choosing it, keep every key', async () => {
    const dir = await tempConfigDir();
    const values: [string, string][] = [
      ['base_url', 'https://api.example.test/api'],
      ['auth_url', 'https://auth.example.test'],
      ['client_id', 'cli'],
      ['scopes', 'openid customers:read'],
      ['tenant', '12'],
      ['output', 'csv'],
      ['realtime.key', 'key'],
      ['realtime.cluster', 'eu'],
      ['realtime.host', 'rt.example.test'],
      ['realtime.port', '6001'],
      ['realtime.tls', 'true'],
      ['realtime.auth_endpoint', 'https://api.example.test/api/broadcasting/auth'],
    ];
    await parallel(dir, [
      ...values.map(([key, value]) => ['--profile', 'work', 'config', 'set', key, value]),
      ['config', 'use-profile', 'work', '--create'],
    ]);
    const config = await configOf(dir);
    expect(config).toMatchObject({ current_profile: 'work' });
    const work = config.profiles.work!;
    for (const [key, value] of values) expect(getPath(work, key), key).toBe(value);
  }, 180_000);
});

describe('the rate-limit budget across servers', () => {
  const epoch = () => Math.floor(Date.now() / 1000);
  /** Two pages of customers, each answer carrying the rate headers `remaining` gives. */
  const pages =
    (remaining: (page: number) => number, resetIn: number) =>
    (request: FakeRequest): FakeAnswer | undefined => {
      const [path, query = ''] = request.path.split('?');
      if (path !== '/api/v1/customers') return undefined;
      const page = Number(new URLSearchParams(query).get('page') ?? '1');
      return {
        headers: {
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': String(remaining(page)),
          'x-ratelimit-reset': String(epoch() + resetIn),
        },
        body: {
          success: true,
          data: [{ id: page, first_name: 'A', last_name: 'B' }],
          meta: { current_page: page, last_page: 2, per_page: 1, total: 2 },
        },
      };
    };

  let a: FakeApi;
  let b: FakeApi;
  let far: FakeApi;
  beforeAll(async () => {
    a = await startFakeApi({ answer: pages((page) => 2 - page, 100) }); // spent: 0 left for 100 s
    b = await startFakeApi({ answer: pages(() => 50, 60) });
    far = await startFakeApi({ answer: pages((page) => 2 - page, 1800) }); // then "spent for half an hour"
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await far.close();
  });

  it('an answer saying the budget is spent for half an hour parks the profile two minutes at most', async () => {
    const dir = await far.configDir();
    const result = await run(
      process.execPath,
      [BIN, 'customers', 'list', '--all', '--per-page', '1', '-o', 'ndjson'],
      {
        env: { ...baseEnv(dir), CLINIC_TOKEN: 'token' } as NodeJS.ProcessEnv,
        timeout: 40_000,
      },
    );
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
    // What the next run of the profile would wait for: what the answer said is kept (the budget is spent), its end
    // taken to be no later than a Retry-After the CLI waits for.
    const kept = JSON.parse(
      await readFile(rateLimitFile({ CLINIC_CONFIG_DIR: dir }, 'fake', far.baseUrl), 'utf8'),
    );
    expect(kept).toMatchObject({ remaining: 0 });
    expect(kept.resetAtMs).toBeLessThanOrEqual(Date.now() + 120_100);
    expect(kept.resetAtMs).toBeGreaterThan(Date.now() + 100_000);
  }, 120_000);

  it('a window spent on server A does not hold the profile back on server B (--base-url)', async () => {
    const dir = await a.configDir();
    const clinic = (args: string[]) =>
      run(process.execPath, [BIN, ...args], {
        env: { ...baseEnv(dir), CLINIC_TOKEN: 'token' } as NodeJS.ProcessEnv,
        timeout: 40_000, // held, it would wait 100 s for A's window
      });
    const onA = await clinic(['customers', 'list', '--all', '--per-page', '1', '-o', 'ndjson']);
    expect(onA.stdout.trim().split('\n')).toHaveLength(2);
    const started = Date.now();
    const onB = await clinic([
      '--base-url',
      b.baseUrl,
      ...['customers', 'list', '--all', '--per-page', '1', '-o', 'ndjson'],
    ]);
    expect(onB.stdout.trim().split('\n')).toHaveLength(2);
    expect(onB.stderr).not.toContain('waiting');
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(b.requests.filter((r) => r.path.startsWith('/api/v1/customers'))).toHaveLength(2);
    // A's window is still kept for A, in a budget of its own.
    const env = { CLINIC_CONFIG_DIR: dir };
    const kept = JSON.parse(await readFile(rateLimitFile(env, 'fake', a.baseUrl), 'utf8'));
    expect(kept).toMatchObject({ remaining: 0 });
    expect(kept.resetAtMs).toBeGreaterThan(Date.now() + 60_000);
  }, 120_000);
});
