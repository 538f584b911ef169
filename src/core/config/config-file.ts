// The config file: named profiles of dotted keys, and which one is current.
// Profile names and keys are the user's data: every object here has no prototype, so a profile named `constructor`
// or `__proto__` is a profile like any other, and a hand-edited file cannot reach Object.prototype.
import { UsageError } from '../errors.js';
import { withLock } from '../lock.js';
import { configFile, type Env } from './paths.js';
import { type ModeNotice, readPrivateFile, writePrivateFile } from './private-file.js';

export type Profile = Record<string, unknown>;

export interface ConfigData {
  current_profile?: string;
  profiles: Record<string, Profile>;
}

/** An empty object without a prototype: any string, `__proto__` included, is an ordinary key of it. */
export function dict<T = unknown>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** The value of an own key only: never a method or setter inherited from Object.prototype. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of parsed JSON in which every object is a dict (JSON.parse gives objects that inherit). */
function toDicts(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toDicts);
  if (!isRecord(value)) return value;
  const copy = dict();
  for (const [key, item] of Object.entries(value)) copy[key] = toDicts(item);
  return copy;
}

/** The profile of that name in the file, if there is one. */
export function profileOf(data: ConfigData, name: string): Profile | undefined {
  return own(data.profiles, name);
}

/** A config with no profiles. */
export const emptyConfig = (): ConfigData => ({ profiles: dict() });

const PROFILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    const shown = name === '' ? 'an empty profile name' : `invalid profile name '${name}'`;
    throw new UsageError(
      `${shown}: use letters, digits, '.', '_' or '-' (up to 64, not starting with '.' or '-')`,
    );
  }
  return name;
}

export async function loadConfig(env: Env, notice?: ModeNotice): Promise<ConfigData> {
  const path = configFile(env);
  const text = await readPrivateFile(path, notice);
  if (text === undefined || text.trim() === '') return emptyConfig();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`config file ${path} is not valid JSON (${(error as Error).message})`);
  }
  if (!isRecord(data)) throw new UsageError(`config file ${path} must hold a JSON object`);
  const current = own(data, 'current_profile');
  if (current !== undefined && current !== null && typeof current !== 'string')
    throw new UsageError(`config file ${path}: current_profile must be a profile name`);
  const profiles = own(data, 'profiles') ?? {};
  if (!isRecord(profiles)) throw new UsageError(`config file ${path}: profiles must be a JSON object`);
  const config = emptyConfig();
  for (const [name, profile] of Object.entries(profiles)) {
    if (!isRecord(profile))
      throw new UsageError(`config file ${path}: profile '${name}' must be a JSON object`);
    config.profiles[name] = toDicts(profile) as Profile;
  }
  if (typeof current === 'string') config.current_profile = current;
  return config;
}

export async function saveConfig(env: Env, data: ConfigData): Promise<void> {
  await writePrivateFile(configFile(env), `${JSON.stringify(data, null, 2)}\n`);
}

/**
 * Reads the file afresh, changes it and writes it back (atomically, 0600), all under the file's lock: two clinic
 * processes changing it at once each keep the other's change.
 */
export function editConfigFile<T>(env: Env, change: (data: ConfigData) => T): Promise<T> {
  return withLock(configFile(env), async () => {
    const data = await loadConfig(env);
    const result = change(data);
    await saveConfig(env, data);
    return result;
  });
}

export function getPath(profile: Profile, key: string): string | undefined {
  let node: unknown = profile;
  for (const part of key.split('.')) {
    if (!isRecord(node)) return undefined;
    node = own(node, part);
  }
  return node === undefined || node === null ? undefined : String(node);
}

export function setPath(profile: Profile, key: string, value: string | undefined): void {
  const parts = key.split('.');
  const last = parts.pop() as string;
  let node: Record<string, unknown> = profile;
  for (const part of parts) {
    const next = own(node, part);
    if (isRecord(next)) {
      node = next;
      continue;
    }
    if (value === undefined) return;
    const made = dict();
    node[part] = made;
    node = made;
  }
  if (value === undefined) delete node[last];
  else node[last] = value;
  // Drop parents left empty by an unset.
  if (value === undefined && parts.length > 0 && Object.keys(node).length === 0)
    setPath(profile, parts.join('.'), undefined);
}

/** Changes one profile (creating it if needed) under the file's lock; see editConfigFile. */
export async function updateProfile(
  env: Env,
  name: string,
  change: (profile: Profile) => void,
): Promise<void> {
  await editConfigFile(env, (data) => {
    const profile = profileOf(data, name) ?? dict();
    change(profile);
    data.profiles[name] = profile;
  });
}
