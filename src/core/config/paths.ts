// Where clinic keeps its files: $CLINIC_CONFIG_DIR, else $XDG_CONFIG_HOME/clinic, else ~/.config/clinic.
import { homedir } from 'node:os';
import { join } from 'node:path';

export type Env = Record<string, string | undefined>;

export function configDir(env: Env): string {
  if (env.CLINIC_CONFIG_DIR) return env.CLINIC_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'clinic');
}

export const configFile = (env: Env): string => join(configDir(env), 'config.json');
export const credentialsFile = (env: Env): string => join(configDir(env), 'credentials.json');
