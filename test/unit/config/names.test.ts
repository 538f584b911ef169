// Profile names and keys are data: names such as `constructor` or `__proto__` are profiles like any other, in the
// config file and in the credentials file, and a hand-edited file reaches no prototype.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileStore } from '../../../src/core/auth/file-store.js';
import {
  checkProfileName,
  getPath,
  loadConfig,
  profileOf,
  saveConfig,
  setPath,
  updateProfile,
} from '../../../src/core/config/config-file.js';
import { configFile, rateLimitFile } from '../../../src/core/config/paths.js';
import { selectProfile, Settings } from '../../../src/core/config/settings.js';
import { UsageError } from '../../../src/core/errors.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('clinic-names-');
const env = () => ({ CLINIC_CONFIG_DIR: tmp.path });

/** Names that are also keys of Object.prototype. */
export const OBJECT_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

/** Nothing reached Object.prototype: a fresh object has no stray keys. */
function expectNoPollution(): void {
  const probe: Record<string, unknown> = {};
  for (const key of ['base_url', 'tenant', 'current_profile', 'polluted', 'access_token'])
    expect(probe[key], key).toBeUndefined();
  expect(Object.keys(Object.prototype)).toEqual([]);
}

afterEach(expectNoPollution);

describe('profile names that are keys of Object.prototype', () => {
  it.each(OBJECT_NAMES)('%s is a valid profile name', (name) => {
    expect(checkProfileName(name)).toBe(name);
  });

  it.each(OBJECT_NAMES)(
    '%s keeps its settings through the file and touches no other profile',
    async (name) => {
      await updateProfile(env(), 'work', (p) => setPath(p, 'tenant', '1'));
      await updateProfile(env(), name, (p) =>
        setPath(p, 'base_url', `https://${name.replace(/_/g, 'u')}.test/api`),
      );
      await updateProfile(env(), name, (p) => setPath(p, 'realtime.host', 'rt.test'));
      const data = await loadConfig(env());
      expect(Object.keys(data.profiles).sort()).toEqual([name, 'work'].sort());
      expect(getPath(profileOf(data, name)!, 'realtime.host')).toBe('rt.test');
      expect(getPath(profileOf(data, 'work')!, 'tenant')).toBe('1');
      expect(getPath(profileOf(data, 'work')!, 'base_url')).toBeUndefined();
      const settings = new Settings(selectProfile(name, {}, data), data, {});
      expect(settings.profileExists).toBe(true);
      expect(settings.get('base_url')).toBe(`https://${name.replace(/_/g, 'u')}.test/api`);
      expect(settings.get('tenant')).toBeUndefined();
      // And in the file itself, as its own key.
      const raw = JSON.parse(await readFile(configFile(env()), 'utf8'));
      expect(Object.hasOwn(raw.profiles, name)).toBe(true);
    },
  );

  it.each(OBJECT_NAMES)('%s is no profile until one is made', async (name) => {
    await saveConfig(env(), { profiles: { work: { tenant: '1' } } });
    const data = await loadConfig(env());
    expect(profileOf(data, name)).toBeUndefined();
    const settings = new Settings({ name, source: 'flag' }, data, {});
    expect(settings.profileExists).toBe(false);
    expect(settings.all().filter((s) => s.source === 'profile')).toEqual([]);
  });

  it.each(OBJECT_NAMES)('%s as current_profile is selected', async (name) => {
    await writeFile(configFile(env()), JSON.stringify({ current_profile: name, profiles: {} }), {
      mode: 0o600,
    });
    expect(selectProfile(undefined, {}, await loadConfig(env()))).toEqual({ name, source: 'config' });
  });

  it('an empty name is refused, from the flag too (never taken for no choice)', () => {
    expect(() => checkProfileName('')).toThrow(UsageError);
    expect(() => selectProfile('', {}, { profiles: {} })).toThrow(/empty profile name/);
  });

  it('a current_profile in the file that no flag could name is refused', () => {
    expect(() => selectProfile(undefined, {}, { current_profile: '../x', profiles: {} })).toThrow(UsageError);
  });
});

describe('a config.json edited by hand with __proto__ keys', () => {
  const HOSTILE = `{
    "__proto__": { "current_profile": "evil", "polluted": "top" },
    "current_profile": "work",
    "profiles": {
      "__proto__": { "base_url": "https://proto.test/api", "polluted": "profiles" },
      "work": {
        "__proto__": { "base_url": "https://evil.test/api", "tenant": "666" },
        "tenant": "1",
        "realtime": { "__proto__": { "host": "evil.test" }, "port": "6001" }
      }
    }
  }`;

  it('is read as data: no setting is inherited, nothing is polluted', async () => {
    await writeFile(configFile(env()), HOSTILE, { mode: 0o600 });
    const data = await loadConfig(env());
    expect(data.current_profile).toBe('work');
    const work = new Settings(selectProfile(undefined, {}, data), data, {});
    expect(work.get('tenant')).toBe('1');
    expect(work.get('base_url')).toBeUndefined();
    expect(work.get('realtime.host')).toBeUndefined();
    expect(work.get('realtime.port')).toBe(6001);
    const proto = new Settings(selectProfile('__proto__', {}, data), data, {});
    expect(proto.get('base_url')).toBe('https://proto.test/api');
    expect(Object.getPrototypeOf(data.profiles)).toBeNull();
    expect(Object.getPrototypeOf(profileOf(data, 'work'))).toBeNull();
  });

  it('keeps those keys as they are when another profile is changed', async () => {
    await writeFile(configFile(env()), HOSTILE, { mode: 0o600 });
    await updateProfile(env(), 'other', (p) => setPath(p, 'tenant', '2'));
    const raw = JSON.parse(await readFile(configFile(env()), 'utf8'));
    expect(Object.hasOwn(raw.profiles, '__proto__')).toBe(true);
    expect(raw.profiles.__proto__).toEqual({ base_url: 'https://proto.test/api', polluted: 'profiles' });
    expect(Object.hasOwn(raw.profiles.work, '__proto__')).toBe(true);
    expect(raw.profiles.other).toEqual({ tenant: '2' });
  });

  it.each([
    ['profiles is not an object', '{"profiles": ["a"]}', /profiles must be a JSON object/],
    ['a profile is not an object', '{"profiles": {"a": "x"}}', /profile 'a' must be a JSON object/],
    ['current_profile is not a name', '{"current_profile": 5, "profiles": {}}', /current_profile/],
  ])('refuses a file whose %s (exit 2)', async (_what, text, message) => {
    await writeFile(configFile(env()), text, { mode: 0o600 });
    const error = await loadConfig(env()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('credentials.json keyed by such names', () => {
  const token = (name: string) => ({ kind: 'pat' as const, access_token: `token-of-${name}` });

  it.each(OBJECT_NAMES)(
    '%s is stored, read back and deleted without touching another profile',
    async (name) => {
      const path = join(tmp.path, 'credentials.json');
      const store = new FileStore(path);
      await store.set('work', token('work'));
      expect(await store.get(name)).toBeUndefined();
      expect(await store.delete(name)).toBe(false);
      await store.set(name, token(name));
      expect(await new FileStore(path).get(name)).toEqual(token(name));
      expect(Object.hasOwn(JSON.parse(await readFile(path, 'utf8')), name)).toBe(true);
      expect(await store.delete(name)).toBe(true);
      expect(await store.get(name)).toBeUndefined();
      expect(await store.get('work')).toEqual(token('work'));
    },
  );

  it.each(OBJECT_NAMES)('%s as the first sign-in of all (no credentials.json yet) is kept', async (name) => {
    const path = join(tmp.path, 'first', 'credentials.json');
    await new FileStore(path).set(name, token(name));
    expect(await new FileStore(path).get(name)).toEqual(token(name));
    expect(Object.hasOwn(JSON.parse(await readFile(path, 'utf8')), name)).toBe(true);
  });

  it('a hand-edited __proto__ entry is an entry, not a prototype', async () => {
    const path = join(tmp.path, 'credentials.json');
    await writeFile(path, '{"__proto__": {"kind": "pat", "access_token": "p"}}', { mode: 0o600 });
    const store = new FileStore(path);
    expect(await store.get('__proto__')).toEqual({ kind: 'pat', access_token: 'p' });
    expect(await store.get('access_token')).toBeUndefined();
    expect(await store.get('kind')).toBeUndefined();
  });
});

describe('the rate-limit budget file', () => {
  it('is one per profile and API origin, whatever the path', () => {
    const at = (profile: string, url: string) => rateLimitFile(env(), profile, url);
    expect(at('__proto__', 'https://a.test/api')).toBe(
      join(tmp.path, 'rate-limit', '__proto__', 'https%3A%2F%2Fa.test.json'),
    );
    expect(at('p', 'https://a.test/api')).toBe(at('p', 'https://a.test/other/api'));
    expect(at('p', 'https://a.test/api')).not.toBe(at('p', 'https://b.test/api'));
    expect(at('p', 'https://a.test/api')).not.toBe(at('p', 'https://a.test:8443/api'));
    expect(at('p', 'https://a.test/api')).not.toBe(at('q', 'https://a.test/api'));
    const long = at('p', `https://${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.test/api`);
    expect(long.split('/').pop()).toMatch(/^[0-9a-f]{64}\.json$/);
  });
});
