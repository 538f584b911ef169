// The config file: dotted get/set/unset, 0700/0600 modes, symlink refusal and invalid JSON.
import { chmod, chown, lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkProfileName,
  getPath,
  loadConfig,
  type Profile,
  saveConfig,
  setPath,
  updateProfile,
} from '../../../src/core/config/config-file.js';
import { configDir, configFile, credentialsFile } from '../../../src/core/config/paths.js';
import {
  ensurePrivateDir,
  readPrivateFile,
  UnsafeFileError,
  writePrivateFile,
} from '../../../src/core/config/private-file.js';
import { UsageError } from '../../../src/core/errors.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { useInProcess } from '../../helpers/in-process.js';
import { BASE_URL, queueReplies } from '../../helpers/mock-api.js';

const tmp = useTempDir('clinic-config-');

describe('getPath / setPath with dotted keys', () => {
  it('sets and reads a nested key', () => {
    const profile: Profile = {};
    setPath(profile, 'realtime.host', 'rt.test');
    setPath(profile, 'realtime.port', '6001');
    setPath(profile, 'tenant', '3');
    expect(profile).toEqual({ realtime: { host: 'rt.test', port: '6001' }, tenant: '3' });
    expect(getPath(profile, 'realtime.host')).toBe('rt.test');
    expect(getPath(profile, 'tenant')).toBe('3');
  });

  it('reads missing keys and paths through scalars as undefined', () => {
    expect(getPath({ tenant: '3' }, 'realtime.host')).toBeUndefined();
    expect(getPath({ realtime: 'x' }, 'realtime.host')).toBeUndefined();
    expect(getPath({ a: null }, 'a')).toBeUndefined();
  });

  it('unset removes the key and prunes parents left empty', () => {
    const profile: Profile = { realtime: { host: 'h' }, tenant: '3' };
    setPath(profile, 'realtime.host', undefined);
    expect(profile).toEqual({ tenant: '3' });
  });

  it('unset keeps parents that still hold other keys', () => {
    const profile: Profile = { realtime: { host: 'h', port: '1' } };
    setPath(profile, 'realtime.host', undefined);
    expect(profile).toEqual({ realtime: { port: '1' } });
  });

  it('unset prunes several levels', () => {
    const profile: Profile = { a: { b: { c: 'x' } }, keep: '1' };
    setPath(profile, 'a.b.c', undefined);
    expect(profile).toEqual({ keep: '1' });
  });

  it('unset of a missing key changes nothing', () => {
    const profile: Profile = { tenant: '3' };
    setPath(profile, 'realtime.host', undefined);
    expect(profile).toEqual({ tenant: '3' });
  });
});

describe('paths', () => {
  it('CLINIC_CONFIG_DIR wins, then XDG_CONFIG_HOME/clinic, then ~/.config/clinic', () => {
    expect(configDir({ CLINIC_CONFIG_DIR: '/c', XDG_CONFIG_HOME: '/x' })).toBe('/c');
    expect(configDir({ XDG_CONFIG_HOME: '/x' })).toBe('/x/clinic');
    expect(configDir({ HOME: '/home/u' })).toBe('/home/u/.config/clinic');
    expect(configFile({ CLINIC_CONFIG_DIR: '/c' })).toBe('/c/config.json');
    expect(credentialsFile({ CLINIC_CONFIG_DIR: '/c' })).toBe('/c/credentials.json');
  });
});

describe('saveConfig / loadConfig', () => {
  it('creates the directory 0700 and the file 0600, and reads back what it wrote', async () => {
    const dir = join(tmp.path, 'nested', 'clinic');
    const env = { CLINIC_CONFIG_DIR: dir };
    const data = { current_profile: 'work', profiles: { work: { tenant: '2', realtime: { host: 'h' } } } };
    await saveConfig(env, data);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'config.json'))).mode & 0o777).toBe(0o600);
    expect(await loadConfig(env)).toEqual(data);
  });

  it('tightens an existing group-readable directory to 0700', async () => {
    const dir = join(tmp.path, 'loose');
    await mkdir(dir, { mode: 0o755 });
    await saveConfig({ CLINIC_CONFIG_DIR: dir }, { profiles: {} });
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it('replaces an existing 0644 file with a 0600 one', async () => {
    const env = { CLINIC_CONFIG_DIR: tmp.path };
    await writeFile(join(tmp.path, 'config.json'), '{"profiles":{}}', { mode: 0o644 });
    await saveConfig(env, { profiles: { a: {} } });
    expect((await stat(join(tmp.path, 'config.json'))).mode & 0o777).toBe(0o600);
  });

  it('a missing or empty file is an empty config', async () => {
    expect(await loadConfig({ CLINIC_CONFIG_DIR: tmp.path })).toEqual({ profiles: {} });
    await writeFile(join(tmp.path, 'config.json'), '  \n');
    expect(await loadConfig({ CLINIC_CONFIG_DIR: tmp.path })).toEqual({ profiles: {} });
  });

  it('invalid JSON is a UsageError naming the file', async () => {
    await writeFile(join(tmp.path, 'config.json'), '{"profiles": ');
    const error = await loadConfig({ CLINIC_CONFIG_DIR: tmp.path }).catch((e) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain(join(tmp.path, 'config.json'));
  });

  it('JSON that is not an object is a UsageError', async () => {
    await writeFile(join(tmp.path, 'config.json'), '[1]');
    await expect(loadConfig({ CLINIC_CONFIG_DIR: tmp.path })).rejects.toBeInstanceOf(UsageError);
  });

  it('updateProfile changes one profile and keeps the others', async () => {
    const env = { CLINIC_CONFIG_DIR: tmp.path };
    await saveConfig(env, { current_profile: 'a', profiles: { a: { tenant: '1' } } });
    await updateProfile(env, 'b', (p) => setPath(p, 'realtime.host', 'h'));
    expect(await loadConfig(env)).toEqual({
      current_profile: 'a',
      profiles: { a: { tenant: '1' }, b: { realtime: { host: 'h' } } },
    });
  });

  it('writes no temporary files next to the config', async () => {
    const env = { CLINIC_CONFIG_DIR: tmp.path };
    await saveConfig(env, { profiles: {} });
    await saveConfig(env, { profiles: { x: {} } });
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(tmp.path)).toEqual(['config.json']);
  });
});

describe('symlinks are refused', () => {
  /** A private config folder whose config.json links to `name` (holding `text`) outside it. */
  async function linkedConfig(name: string, text: string) {
    const target = join(tmp.path, name);
    await writeFile(target, text);
    const dir = join(tmp.path, 'cfg');
    await mkdir(dir, { mode: 0o700 });
    await symlink(target, join(dir, 'config.json'));
    return { target, dir };
  }

  it('loading a symlinked config file throws UnsafeFileError', async () => {
    const { dir } = await linkedConfig('elsewhere.json', '{"profiles":{}}');
    await expect(loadConfig({ CLINIC_CONFIG_DIR: dir })).rejects.toBeInstanceOf(UnsafeFileError);
  });

  it('saving through a symlinked config file throws UnsafeFileError and leaves the target untouched', async () => {
    const { target, dir } = await linkedConfig('victim.txt', 'original');
    await expect(saveConfig({ CLINIC_CONFIG_DIR: dir }, { profiles: {} })).rejects.toBeInstanceOf(
      UnsafeFileError,
    );
    expect(await readFile(target, 'utf8')).toBe('original');
    expect((await lstat(join(dir, 'config.json'))).isSymbolicLink()).toBe(true);
  });

  it('writePrivateFile refuses a symlinked credentials file', async () => {
    const target = join(tmp.path, 'victim.txt');
    await writeFile(target, 'original');
    await symlink(target, join(tmp.path, 'credentials.json'));
    await expect(writePrivateFile(join(tmp.path, 'credentials.json'), 'x')).rejects.toBeInstanceOf(
      UnsafeFileError,
    );
    await expect(readPrivateFile(join(tmp.path, 'credentials.json'))).rejects.toBeInstanceOf(UnsafeFileError);
    expect(await readFile(target, 'utf8')).toBe('original');
  });

  it('a symlinked config directory (dotfile managers) is followed and its target made private', async () => {
    const real = join(tmp.path, 'real');
    await mkdir(real, { mode: 0o755 });
    const link = join(tmp.path, 'link');
    await symlink(real, link);
    await saveConfig({ CLINIC_CONFIG_DIR: link }, { current_profile: 'p', profiles: {} });
    expect((await stat(real)).mode & 0o777).toBe(0o700);
    expect((await stat(join(real, 'config.json'))).mode & 0o777).toBe(0o600);
    expect((await loadConfig({ CLINIC_CONFIG_DIR: link })).current_profile).toBe('p');
  });

  it('a config directory path that is a file is refused', async () => {
    const file = join(tmp.path, 'not-a-dir');
    await writeFile(file, '');
    await expect(saveConfig({ CLINIC_CONFIG_DIR: file }, { profiles: {} })).rejects.toThrow();
  });
});

describe("another user's config folder or file is never used, nor changed", () => {
  // Root running clinic with another user's HOME (sudo -E) would otherwise chmod or write wherever they point.
  const asRoot = process.getuid?.() === 0;
  const OTHER_USER = 65534; // nobody

  it.skipIf(!asRoot)(
    'a folder of theirs, or a link to one: refused, its modes and contents left alone',
    async () => {
      const theirs = join(tmp.path, 'theirs');
      await mkdir(theirs, { mode: 0o755 });
      await chown(theirs, OTHER_USER, OTHER_USER);
      await expect(ensurePrivateDir(theirs)).rejects.toThrow(
        `${theirs} belongs to another user (uid 65534); refusing to keep clinic's files in it`,
      );
      const link = join(tmp.path, 'link');
      await symlink(theirs, link);
      await expect(saveConfig({ CLINIC_CONFIG_DIR: link }, { profiles: {} })).rejects.toBeInstanceOf(
        UnsafeFileError,
      );
      expect((await stat(theirs)).mode & 0o777).toBe(0o755);
      expect(await readdir(theirs)).toEqual([]);
    },
  );

  it.skipIf(!asRoot)(
    'a config file of theirs, or one in a folder of theirs: refused, not made 0600',
    async () => {
      const dir = join(tmp.path, 'cfg');
      await mkdir(dir, { mode: 0o700 });
      await writeFile(join(dir, 'config.json'), '{"profiles":{}}', { mode: 0o644 });
      await chown(join(dir, 'config.json'), OTHER_USER, OTHER_USER);
      await expect(loadConfig({ CLINIC_CONFIG_DIR: dir })).rejects.toThrow(
        /config\.json belongs to another user/,
      );
      expect((await stat(join(dir, 'config.json'))).mode & 0o777).toBe(0o644);
      await chown(join(dir, 'config.json'), 0, 0);
      await chmod(dir, 0o755);
      await chown(dir, OTHER_USER, OTHER_USER);
      await expect(loadConfig({ CLINIC_CONFIG_DIR: dir })).rejects.toThrow(
        `${dir} belongs to another user (uid 65534); refusing to use ${join(dir, 'config.json')}`,
      );
      expect((await stat(dir)).mode & 0o777).toBe(0o755);
    },
  );

  it("the user's own loose folder is still tightened, through a link too", async () => {
    const mine = join(tmp.path, 'mine');
    await mkdir(mine, { mode: 0o777 });
    await chmod(mine, 0o777);
    await symlink(mine, join(tmp.path, 'mine-link'));
    await ensurePrivateDir(join(tmp.path, 'mine-link'));
    expect((await stat(mine)).mode & 0o777).toBe(0o700);
  });
});

describe('checkProfileName', () => {
  it('accepts letters, digits, dot, underscore and dash', () => {
    expect(checkProfileName('work-1.prod_eu')).toBe('work-1.prod_eu');
  });

  it.each(['', '../x', 'a b', '-lead', 'x'.repeat(65)])('rejects %j', (name) => {
    expect(() => checkProfileName(name)).toThrow(UsageError);
  });
});

describe('loose file modes', () => {
  const cli = useInProcess();

  it('a config or credentials file others may write to is refused, left as it is, and no request is sent', async () => {
    const { chmod } = await import('node:fs/promises');
    for (const [name, mode] of [
      ['config.json', 0o666],
      ['config.json', 0o620],
      ['credentials.json', 0o646],
    ] as const) {
      const config = join(cli.dir, `writable-${name}-${mode.toString(8)}`);
      await mkdir(config, { recursive: true, mode: 0o700 });
      const profile = JSON.stringify({ profiles: { default: { tenant: '7', base_url: BASE_URL } } });
      await writeFile(join(config, 'config.json'), profile, { mode: 0o600 });
      await writeFile(join(config, 'credentials.json'), '{"default":{"access_token":"t0k"}}', {
        mode: 0o600,
      });
      await chmod(join(config, name), mode);
      const env = {
        CLINIC_CONFIG_DIR: config,
        CLINIC_TOKEN: undefined,
        CLINIC_BASE_URL: undefined,
        CLINIC_CREDENTIAL_STORE: 'file',
      };
      const before = cli.seen.length;
      const result = await cli.run(['account'], { env });
      expect(result.code, result.stderr).not.toBe(0);
      expect(result.stderr).toContain(
        `${join(config, name)} may be written by other users (mode ${mode.toString(8)}), so what it says may not be yours`,
      );
      expect(result.stderr).toContain(`chmod 600 ${join(config, name)}`);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(cli.seen.length).toBe(before);
      expect((await stat(join(config, name))).mode & 0o777).toBe(mode);
    }
  });

  it('a config directory at 0755 and files at 0644 are tightened, with one warning each run', async () => {
    const { chmod } = await import('node:fs/promises');
    const config = join(cli.dir, 'loose');
    await mkdir(config, { recursive: true });
    await chmod(config, 0o755);
    const profile = JSON.stringify({ profiles: { default: { tenant: '7', base_url: BASE_URL } } });
    await writeFile(join(config, 'config.json'), profile, { mode: 0o644 });
    await writeFile(join(config, 'credentials.json'), '{"default":{"access_token":"t0k"}}', { mode: 0o644 });
    await chmod(join(config, 'config.json'), 0o644);
    await chmod(join(config, 'credentials.json'), 0o644);
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/account', [
      { status: 200, body: { success: true, data: { id: 1 } } },
    ]);
    const looseEnv = {
      CLINIC_CONFIG_DIR: config,
      CLINIC_TOKEN: undefined,
      CLINIC_BASE_URL: undefined,
      CLINIC_CREDENTIAL_STORE: 'file',
    };
    const result = await cli.run(['account', '-o', 'json'], { env: looseEnv });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/warning: .*config\.json was 644/);
    expect(result.stderr).toMatch(/warning: .*credentials\.json was 644/);
    expect((await stat(join(config, 'config.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(config, 'credentials.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(config)).mode & 0o777).toBe(0o700);
  });
});
