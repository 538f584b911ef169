// The config file: named profiles of dotted keys, and which one is current.
import { UsageError } from '../errors.js';
import { configFile, type Env } from './paths.js';
import { type ModeNotice, readPrivateFile, writePrivateFile } from './private-file.js';

export type Profile = Record<string, unknown>;

export interface ConfigData {
  current_profile?: string;
  profiles: Record<string, Profile>;
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`invalid profile name '${name}': use letters, digits, '.', '_' or '-' (up to 64)`);
  }
  return name;
}

export async function loadConfig(env: Env, notice?: ModeNotice): Promise<ConfigData> {
  const path = configFile(env);
  const text = await readPrivateFile(path, notice);
  if (text === undefined || text.trim() === '') return { profiles: {} };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`config file ${path} is not valid JSON (${(error as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new UsageError(`config file ${path} must hold a JSON object`);
  }
  const record = data as Partial<ConfigData>;
  return { current_profile: record.current_profile, profiles: { ...(record.profiles ?? {}) } };
}

export async function saveConfig(env: Env, data: ConfigData): Promise<void> {
  await writePrivateFile(configFile(env), `${JSON.stringify(data, null, 2)}\n`);
}

export function getPath(profile: Profile, key: string): string | undefined {
  let node: unknown = profile;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node === undefined || node === null ? undefined : String(node);
}

export function setPath(profile: Profile, key: string, value: string | undefined): void {
  const parts = key.split('.');
  const last = parts.pop() as string;
  let node: Record<string, unknown> = profile;
  for (const part of parts) {
    const next = node[part];
    if (typeof next !== 'object' || next === null) {
      if (value === undefined) return;
      node[part] = {};
    }
    node = node[part] as Record<string, unknown>;
  }
  if (value === undefined) delete node[last];
  else node[last] = value;
  // Drop parents left empty by an unset.
  if (value === undefined && parts.length > 0 && Object.keys(node).length === 0)
    setPath(profile, parts.join('.'), undefined);
}

/** Reads the file afresh, changes one profile (creating it if needed) and writes it back. */
export async function updateProfile(
  env: Env,
  name: string,
  change: (profile: Profile) => void,
): Promise<void> {
  const data = await loadConfig(env);
  const profile = data.profiles[name] ?? {};
  change(profile);
  data.profiles[name] = profile;
  await saveConfig(env, data);
}
