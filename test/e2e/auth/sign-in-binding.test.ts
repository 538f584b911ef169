// A stored sign-in goes only to the servers it came from: another base_url (flag, env, edited profile) or another
// auth_url (env, edited profile) gets no token and exit 3; a blank CLINIC_TOKEN is exit 2 with no request.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lines } from '../../helpers/cli.js';
import { type FakeApi, startFakeApi } from '../../helpers/fake-api.js';
import { oauthWorld, useWorld } from '../../helpers/world.js';

const FETCH_BROWSER = `"${process.execPath}" "${fileURLToPath(new URL('../../helpers/fetch-browser.mjs', import.meta.url))}"`;

const world = useWorld(); // profile sandbox, signed in with --with-token
let other: FakeApi;
const origin = (url: string) => new URL(url).origin;
const credentialsFile = () => join(world.configDir, 'credentials.json');
const readCredentials = async () => JSON.parse(await readFile(credentialsFile(), 'utf8'));

beforeAll(async () => {
  other = await startFakeApi();
});
afterAll(() => other.close());

/** One `error:` line naming both servers, the not-sent note, and how to sign in; exit 3. */
function expectRefused(result: { code: number | null; stderr: string }, used: string) {
  expect(result.code, result.stderr).toBe(3);
  const errors = lines(result.stderr).filter((line) => line.startsWith('error:'));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain(origin(world.sandbox.info.base_url));
  expect(errors[0]).toContain(origin(used));
  expect(result.stderr).toMatch(/run: clinic --profile sandbox .*login/);
}

describe('the API token stays with its base_url', () => {
  it('--with-token records the origins it was obtained for', async () => {
    const stored = (await readCredentials()).sandbox;
    expect(stored.origins).toEqual({
      base_url: origin(world.sandbox.info.base_url),
      auth_url: origin(world.sandbox.info.base_url),
    });
  });

  it('--base-url to another server: nothing reaches it, exit 3 naming both addresses', async () => {
    const result = await world.clinic(['--base-url', other.baseUrl, 'account']);
    expectRefused(result, other.baseUrl);
    expect(result.stderr).toContain(`--base-url ${other.baseUrl} login`);
    expect(other.requests).toEqual([]);
  });

  it('CLINIC_BASE_URL to another server: the same', async () => {
    const result = await world.clinic(['customers', 'list'], { env: { CLINIC_BASE_URL: other.baseUrl } });
    expectRefused(result, other.baseUrl);
    expect(result.stderr).toContain('CLINIC_BASE_URL');
    expect(other.requests).toEqual([]);
  });

  it('auth token does not print it for another server either', async () => {
    const result = await world.clinic(['auth', 'token'], { env: { CLINIC_BASE_URL: other.baseUrl } });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
  });

  it('an edited profile pointing elsewhere: the same, and it works again once put back', async () => {
    await world.clinic(['config', 'set', 'base_url', other.baseUrl]);
    try {
      const result = await world.clinic(['account']);
      expectRefused(result, other.baseUrl);
      expect(other.requests).toEqual([]);
    } finally {
      await world.clinic(['config', 'set', 'base_url', world.sandbox.info.base_url]);
    }
    expect((await world.clinic(['account'])).code).toBe(0);
  });

  it("CLINIC_TOKEN is the user's own choice of address: it is sent, unbound", async () => {
    const result = await world.clinic(['account'], {
      env: { CLINIC_BASE_URL: other.baseUrl, CLINIC_TOKEN: 'chosen-for-this-server' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(other.requests.at(-1)).toMatchObject({ path: '/api/v1/account', authorized: true });
    other.requests.length = 0;
  });
});

describe('a sign-in stored before origins were recorded', () => {
  async function makeLegacy() {
    const all = await readCredentials();
    delete all.sandbox.origins;
    await writeFile(credentialsFile(), JSON.stringify(all), { mode: 0o600 });
  }

  it("is bound on first use to the profile's own base_url, not to an override", async () => {
    await makeLegacy();
    const result = await world.clinic(['account'], { env: { CLINIC_BASE_URL: other.baseUrl } });
    expectRefused(result, other.baseUrl);
    expect(other.requests).toEqual([]);
    expect((await readCredentials()).sandbox.origins.base_url).toBe(origin(world.sandbox.info.base_url));
  });

  it('keeps working where the profile points, and the binding then survives an edit of the profile', async () => {
    await makeLegacy();
    expect((await world.clinic(['account'])).code).toBe(0);
    expect((await readCredentials()).sandbox.origins.base_url).toBe(origin(world.sandbox.info.base_url));
    await world.clinic(['config', 'set', 'base_url', other.baseUrl]);
    try {
      expectRefused(await world.clinic(['account']), other.baseUrl);
      expect(other.requests).toEqual([]);
    } finally {
      await world.clinic(['config', 'set', 'base_url', world.sandbox.info.base_url]);
    }
  });
});

describe('CLINIC_TOKEN set but blank', () => {
  for (const [name, value] of [
    ['empty', ''],
    ['whitespace', '  \n'],
  ]) {
    it(`${name}: exit 2, one line, no request, no fall-back to the stored sign-in`, async () => {
      world.newRequests();
      const result = await world.clinic(['account'], { env: { CLINIC_TOKEN: value } });
      expect(result.code).toBe(2);
      expect(lines(result.stderr)).toEqual([
        'error: CLINIC_TOKEN is set but empty: give it a token, or unset it to use the stored sign-in',
      ]);
      expect(result.stdout).toBe('');
      expect(world.newRequests()).toEqual([]);
    });
  }

  it('a token with a line break in it (a header injection) is exit 2 as well', async () => {
    world.newRequests();
    const result = await world.clinic(['account'], { env: { CLINIC_TOKEN: 'abc\r\nX-Evil: 1' } });
    expect(result.code).toBe(2);
    expect(world.newRequests()).toEqual([]);
  });
});

describe('the refresh token stays with its auth_url', () => {
  const oauth = useWorld(oauthWorld);

  async function signIn() {
    const result = await oauth.clinic(['login', '--insecure-storage'], { env: { BROWSER: FETCH_BROWSER } });
    expect(result.code, result.stderr).toBe(0);
  }
  async function expire() {
    const file = join(oauth.configDir, 'credentials.json');
    const all = JSON.parse(await readFile(file, 'utf8'));
    all.sandbox.expires_at = new Date(Date.now() - 1000).toISOString();
    await writeFile(file, JSON.stringify(all), { mode: 0o600 });
  }
  const grants = () => oauth.sandbox.oauth.grants.refresh_token;

  function expectNoRefresh(result: { code: number | null; stderr: string }, before: number) {
    expect(result.code, result.stderr).toBe(3);
    const error = lines(result.stderr).find((line) => line.startsWith('error:')) ?? '';
    expect(error).toContain(origin(oauth.sandbox.info.auth_url));
    expect(error).toContain(origin(other.baseUrl));
    expect(error).toContain('not refreshed');
    expect(other.requests).toEqual([]); // not even discovery
    expect(grants()).toBe(before);
  }

  it('CLINIC_AUTH_URL elsewhere: an expired token is not refreshed there (exit 3)', async () => {
    await signIn();
    await expire();
    const before = grants();
    const result = await oauth.clinic(['customers', 'list'], {
      env: { CLINIC_AUTH_URL: origin(other.baseUrl) },
    });
    expectNoRefresh(result, before);
    expect(result.stderr).toContain('CLINIC_AUTH_URL');
  });

  it('CLINIC_AUTH_URL elsewhere: neither after a 401, nor by auth refresh', async () => {
    await signIn();
    const file = join(oauth.configDir, 'credentials.json');
    const all = JSON.parse(await readFile(file, 'utf8'));
    all.sandbox.access_token = 'rejected-by-the-api';
    await writeFile(file, JSON.stringify(all), { mode: 0o600 });
    const env = { CLINIC_AUTH_URL: origin(other.baseUrl) };
    const before = grants();
    expectNoRefresh(await oauth.clinic(['customers', 'list'], { env }), before);
    expectNoRefresh(await oauth.clinic(['auth', 'refresh'], { env }), before);
  });

  it('an edited auth_url: the same; put back, the refresh goes through', async () => {
    await signIn();
    await expire();
    const before = grants();
    await oauth.clinic(['config', 'set', 'auth_url', origin(other.baseUrl)]);
    try {
      expectNoRefresh(await oauth.clinic(['customers', 'list']), before);
    } finally {
      await oauth.clinic(['config', 'set', 'auth_url', oauth.sandbox.info.auth_url]);
    }
    const result = await oauth.clinic(['customers', 'list', '--limit', '1']);
    expect(result.code, result.stderr).toBe(0);
    expect(grants()).toBe(before + 1);
  });
});
