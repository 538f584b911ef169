// --dry-run against the sandbox, signed in through the browser (a refresh token the server can revoke): commands
// that write with no dry run of their own refuse it (exit 2, one line) and send nothing, change no setting and
// keep the sign-in; one that honours it shows its request; a read-only one runs as without it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { clinicSending, oauthWorld, useWorld } from '../../helpers/world.js';

const FETCH_BROWSER = `"${process.execPath}" "${fileURLToPath(new URL('../../helpers/fetch-browser.mjs', import.meta.url))}"`;

const world = useWorld(oauthWorld);

/** What the config folder holds that a command could change: the settings and the stored sign-in. */
const files = async () =>
  Promise.all(
    ['config.json', 'credentials.json'].map((name) => readFile(join(world.configDir, name), 'utf8')),
  );

beforeAll(async () => {
  const login = await world.clinic(['login', '--insecure-storage'], { env: { BROWSER: FETCH_BROWSER } });
  if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
  await world.clinic(['--profile', 'other', 'config', 'set', 'base_url', world.sandbox.info.base_url]);
});

describe('--dry-run on a command with no dry run of its own', () => {
  it.each([
    [['logout'], 'clinic logout'],
    [['logout', '--all-profiles'], 'clinic logout'],
    [['auth', 'refresh'], 'clinic auth refresh'],
    [['config', 'set', 'tenant', '2'], 'clinic config set'],
    [['config', 'unset', 'tenant'], 'clinic config unset'],
    [['config', 'use-profile', 'other'], 'clinic config use-profile'],
    [['tenants', 'use', '2'], 'clinic tenants use'],
    [['login', '--with-token', '--insecure-storage'], 'clinic login'],
  ])('clinic %j --dry-run: exit 2, one line, nothing sent, nothing changed', async (args, command) => {
    const before = await files();
    const { grants, revocations } = world.sandbox.oauth;
    const result = await clinicSending(world, [...args, '--dry-run'], { input: world.sandbox.info.token });
    expect(result.stderr).toBe(`error: --dry-run is not supported by '${command}': nothing was done\n`);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.requests).toEqual([]);
    expect(await files()).toEqual(before);
    expect(world.sandbox.oauth).toMatchObject({ grants, revocations });
  });

  it('leaves the sign-in working', async () => {
    const status = await world.clinic(['auth', 'status', '-o', 'json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      profile: 'sandbox',
      token_source: 'login',
      tenant: '1',
    });
  });
});

describe('--dry-run where it means something', () => {
  it('a write that honours it prints its request and sends nothing', async () => {
    const args = ['customers', 'create', '--set', 'first_name=Dry', '--set', 'last_name=Run', '--dry-run'];
    const result = await clinicSending(world, args);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      method: 'POST',
      url: `${world.sandbox.info.base_url}/v1/customers`,
      body: { first_name: 'Dry', last_name: 'Run' },
    });
    expect(result.requests.filter(({ method }) => method !== 'GET')).toEqual([]);
  });

  it('a read-only command runs as it does without it', async () => {
    const result = await clinicSending(world, ['customers', 'get', '1', '-o', 'json', '--dry-run']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 1 });
    expect(result.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'GET /api/v1/customers/1',
    ]);
  });
});
