// CLINIC_* overrides are for the selected profile only: `logout --all-profiles` revokes each profile's sign-in at its
// own server with its own settings, and a CLINIC_AUTH_URL pointing elsewhere receives no refresh token.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { runCli, startWorld, type TestWorld } from '../../helpers/cli.js';
import { type FakeApi, startFakeApi } from '../../helpers/fake-api.js';

const FETCH_BROWSER = `"${process.execPath}" "${fileURLToPath(new URL('../../helpers/fetch-browser.mjs', import.meta.url))}"`;

let world: TestWorld; // profile sandbox → sandbox A
let second: RunningSandbox; // profile other → sandbox B
let stranger: FakeApi; // where CLINIC_AUTH_URL points
const clinic = (args: string[], env: Record<string, string> = {}) =>
  runCli(world.configDir, args, { env: { BROWSER: FETCH_BROWSER, ...env } });

async function configure(profile: string, sandbox: RunningSandbox) {
  const { base_url, auth_url, client_id } = sandbox.info;
  for (const [key, value] of Object.entries({ base_url, auth_url, client_id })) {
    const set = await clinic(['--profile', profile, 'config', 'set', key, value]);
    expect(set.code, set.stderr).toBe(0);
  }
}

beforeAll(async () => {
  world = await startWorld({}, false);
  second = await startSandbox({ port: 0, rateLimit: 0 });
  stranger = await startFakeApi();
  await configure('sandbox', world.sandbox);
  await configure('other', second);
});
afterAll(async () => {
  await stranger.close();
  await second.close();
  await world.close();
});

beforeEach(async () => {
  for (const profile of ['sandbox', 'other']) {
    const login = await clinic(['--profile', profile, 'login', '--insecure-storage']);
    expect(login.code, login.stderr).toBe(0);
  }
  stranger.requests.length = 0;
});

const revocations = (): [number, number] => [world.sandbox.oauth.revocations, second.oauth.revocations];
const stored = async () => JSON.parse(await readFile(join(world.configDir, 'credentials.json'), 'utf8'));

describe('logout --all-profiles', () => {
  it('CLINIC_AUTH_URL elsewhere: nothing reaches it; each profile is revoked at its own server', async () => {
    const [a, b] = revocations();
    const result = await clinic(['--profile', 'sandbox', 'logout', '--all-profiles'], {
      CLINIC_AUTH_URL: new URL(stranger.baseUrl).origin,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(stranger.requests).toEqual([]);
    const [a2, b2] = revocations();
    expect(a2).toBeGreaterThan(a);
    expect(b2).toBeGreaterThan(b);
    expect(result.stderr).toContain(`revoked the sign-in at ${new URL(world.sandbox.info.auth_url).origin}`);
    expect(result.stderr).toContain(`revoked the sign-in at ${new URL(second.info.auth_url).origin}`);
    expect(result.stderr).not.toContain('warning');
    expect(await stored()).toEqual({});
  });

  it('the other profiles use their own client_id, not CLINIC_CLIENT_ID given for the selected one', async () => {
    const [a, b] = revocations();
    const result = await clinic(['--profile', 'nobody', 'logout', '--all-profiles'], {
      CLINIC_CLIENT_ID: 'not-a-client-of-either',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('warning');
    expect(stranger.requests).toEqual([]);
    const [a2, b2] = revocations();
    expect(a2).toBeGreaterThan(a);
    expect(b2).toBeGreaterThan(b);
    expect(await stored()).toEqual({});
  });
});
