// Sign-in with a token, auth status/token, logout, and the config commands, end to end.
import { lstat, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lines, startWorld } from '../../helpers/cli.js';
import { useWorld } from '../../helpers/world.js';

const world = useWorld(() => startWorld({}, false));

describe('login --with-token and the credential file', () => {
  it('refuses an empty token', async () => {
    const { code, stderr } = await world.clinic(['login', '--with-token', '--insecure-storage'], {
      input: '  \n',
    });
    expect(code).toBe(2);
    expect(lines(stderr)).toEqual(['error: no token on standard input']);
  });

  it('refuses a token the server rejects, storing nothing', async () => {
    const { code } = await world.clinic(['login', '--with-token', '--insecure-storage'], {
      input: 'clinic_pat_nope',
    });
    expect(code).toBe(3);
    await expect(lstat(join(world.configDir, 'credentials.json'))).rejects.toThrow();
  });

  it('never falls back to the plain file silently when the keychain is not usable', async () => {
    const { code, stderr } = await world.clinic(['login', '--with-token'], {
      input: world.sandbox.info.token,
      // No session bus: the keychain cannot be reached.
      env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', DISPLAY: undefined },
    });
    expect(code).toBe(3);
    expect(stderr).toContain('--insecure-storage');
    expect(stderr).toContain('CLINIC_TOKEN');
    await expect(lstat(join(world.configDir, 'credentials.json'))).rejects.toThrow();
  });

  it('stores a good token in a 0600 file with --insecure-storage, never printing it', async () => {
    const { code, stdout, stderr } = await world.clinic(['login', '--with-token', '--insecure-storage'], {
      input: `${world.sandbox.info.token}\n`,
    });
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toContain('logged in as Dana Admin');
    expect(stderr).not.toContain(world.sandbox.info.token);
    const file = join(world.configDir, 'credentials.json');
    expect((await lstat(file)).mode & 0o777).toBe(0o600);
    expect((await lstat(world.configDir)).mode & 0o777).toBe(0o700);
    expect((await lstat(join(world.configDir, 'config.json'))).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toContain(world.sandbox.info.token);
  });

  it('auth status names the user, the tenant and where the token is', async () => {
    const { code, stdout } = await world.clinic(['auth', 'status', '-o', 'json']);
    expect(code).toBe(0);
    const status = JSON.parse(stdout);
    expect(status).toMatchObject({ profile: 'sandbox', user: { name: 'Dana Admin' }, tenant: '1' });
    expect(status.storage).toContain('credentials.json');
    expect(stdout).not.toContain(world.sandbox.info.token);
  });

  it('auth token prints the token and nothing else', async () => {
    const { code, stdout, stderr } = await world.clinic(['auth', 'token']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${world.sandbox.info.token}\n`);
    expect(stderr).toBe('');
  });

  it('CLINIC_TOKEN overrides the stored token', async () => {
    const viewer = world.sandbox.issueToken({ userId: 3 });
    const { stdout } = await world.clinic(['account', '--fields', 'name'], { env: { CLINIC_TOKEN: viewer } });
    expect(JSON.parse(stdout)).toEqual({ name: 'Vera Viewer' });
  });

  it('--debug traces the exchange with the token redacted', async () => {
    const { code, stderr } = await world.clinic(['account', '--debug']);
    expect(code).toBe(0);
    expect(stderr).toMatch(/debug: > GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/account/);
    expect(stderr).toContain('authorization: Bearer ***');
    expect(stderr).toMatch(/debug: < 200 \(\d+ ms\)/);
    expect(stderr).not.toContain(world.sandbox.info.token);
    expect(stderr).not.toMatch(/x-tenant/i); // never on /v1/account
  });

  it('refuses a credentials file that is a symlink, leaving its target alone', async () => {
    const file = join(world.configDir, 'credentials.json');
    const saved = await readFile(file, 'utf8');
    const { rm } = await import('node:fs/promises');
    const target = `${world.configDir}-target.json`;
    await writeFile(target, '{}');
    await rm(file);
    await symlink(target, file);
    try {
      const { code, stderr } = await world.clinic(['account']);
      expect(code).toBe(1);
      expect(stderr).toContain('symbolic link');
      expect(await readFile(target, 'utf8')).toBe('{}');
    } finally {
      await rm(file);
      await writeFile(file, saved, { mode: 0o600 });
    }
  });

  it('logout deletes the token; then commands exit 3', async () => {
    const { code, stderr } = await world.clinic(['logout']);
    expect(code).toBe(0);
    expect(stderr).toContain('logged out of profile sandbox');
    expect(await readFile(join(world.configDir, 'credentials.json'), 'utf8')).not.toContain(
      world.sandbox.info.token,
    );
    expect((await world.clinic(['auth', 'status'])).code).toBe(3);
  });

  it('logout finds the sign-in where commands do: CLINIC_CREDENTIAL_STORE=file, the profile naming no store', async () => {
    const stored = await world.clinic(['login', '--with-token', '--insecure-storage'], {
      input: world.sandbox.info.token,
    });
    expect(stored.code, stored.stderr).toBe(0);
    // The profile forgets where login put it (edited by hand, or written by another tool).
    const path = join(world.configDir, 'config.json');
    const config = JSON.parse(await readFile(path, 'utf8')) as {
      profiles: Record<string, Record<string, unknown>>;
    };
    delete config.profiles.sandbox!.credential_store;
    await writeFile(path, JSON.stringify(config), { mode: 0o600 });
    const env = { CLINIC_CREDENTIAL_STORE: 'file' };
    expect((await world.clinic(['auth', 'status'], { env })).code).toBe(0);
    const { code, stderr } = await world.clinic(['logout'], { env });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('logged out of profile sandbox');
    expect(await readFile(join(world.configDir, 'credentials.json'), 'utf8')).not.toContain(
      world.sandbox.info.token,
    );
    expect((await world.clinic(['auth', 'status'], { env })).code).toBe(3);
  });
});

describe('config', () => {
  it('set, get, unset a dotted key', async () => {
    expect((await world.clinic(['config', 'set', 'realtime.host', 'rt.example.com'])).code).toBe(0);
    expect((await world.clinic(['config', 'get', 'realtime.host'])).stdout).toBe('rt.example.com\n');
    expect((await world.clinic(['config', 'unset', 'realtime.host'])).code).toBe(0);
    expect((await world.clinic(['config', 'get', 'realtime.host'])).code).toBe(1);
  });

  it('flag > env > profile > default', async () => {
    await world.clinic(['config', 'set', 'output', 'csv']);
    const get = (args: string[], env?: Record<string, string>) =>
      world.clinic([...args, 'config', 'get', 'output'], { env }).then((r) => r.stdout.trim());
    expect(await get([])).toBe('csv');
    expect(await get([], { CLINIC_OUTPUT: 'ndjson' })).toBe('ndjson');
    expect(await get(['-o', 'table'], { CLINIC_OUTPUT: 'ndjson' })).toBe('table');
    await world.clinic(['config', 'unset', 'output']);
    expect((await world.clinic(['config', 'get', 'scopes'])).stdout).toBe('openid *\n');
  });

  it('list shows sources; profiles and use-profile', async () => {
    const list = JSON.parse((await world.clinic(['config', 'list', '-o', 'json'])).stdout);
    expect(list).toContainEqual(expect.objectContaining({ key: 'tenant', value: '1', source: 'profile' }));
    expect(list).toContainEqual(
      expect.objectContaining({ key: 'scopes', value: 'openid *', source: 'default' }),
    );
    await world.clinic(['config', 'use-profile', 'sandbox']);
    const profiles = JSON.parse((await world.clinic(['config', 'profiles', '-o', 'json'])).stdout);
    expect(profiles).toContainEqual(expect.objectContaining({ name: 'sandbox', current: true }));
    const config = JSON.parse(await readFile(join(world.configDir, 'config.json'), 'utf8'));
    expect(config.current_profile).toBe('sandbox');
  });
});
