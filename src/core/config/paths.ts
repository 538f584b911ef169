// Where clinic keeps its files: $CLINIC_CONFIG_DIR, else $XDG_CONFIG_HOME/clinic, else ~/.config/clinic.
import { join } from 'node:path';
import { lazyRequire } from '../lazy-require.js';

const crypto = lazyRequire<typeof import('node:crypto')>('node:crypto');

export type Env = Record<string, string | undefined>;

export function configDir(env: Env): string {
  if (env.CLINIC_CONFIG_DIR) return env.CLINIC_CONFIG_DIR;
  const xdg = env.XDG_CONFIG_HOME;
  const home = xdg ? undefined : env.HOME;
  // Asked for each file of a run: joined once for the same variables.
  if (last && last.xdg === xdg && last.home === home) return last.dir;
  const dir = join(xdg || join(home || homedir(), '.config'), 'clinic');
  last = { xdg, home, dir };
  return dir;
}

let last: { xdg: string | undefined; home: string | undefined; dir: string } | undefined;

/** The home directory where $HOME is unset (node:os loads only then: half a millisecond of every start). */
function homedir(): string {
  return (process.getBuiltinModule('node:os') as typeof import('node:os')).homedir();
}

export const configFile = (env: Env): string => join(configDir(env), 'config.json');
export const credentialsFile = (env: Env): string => join(configDir(env), 'credentials.json');

/**
 * The lock around a profile's sign-in, held by whatever reads, changes and writes it back (a refresh, a login, a
 * logout): a file store's in the config folder; a keychain entry's (one per profile name, whatever the config folder:
 * the contract's account) in one folder of the user's, $XDG_RUNTIME_DIR/clinic, else $XDG_CACHE_HOME/clinic/locks,
 * so two config folders with a profile of the same name never refresh the one entry at once.
 */
export function signInLock(env: Env, kind: 'keychain' | 'file', profile: string): string {
  if (kind === 'file') return join(configDir(env), 'locks', `${profile}.refresh`);
  const runtime = env.XDG_RUNTIME_DIR?.startsWith('/') ? join(env.XDG_RUNTIME_DIR, 'clinic') : undefined;
  const cache = join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'clinic', 'locks');
  return join(runtime ?? cache, `keychain-${encodeURIComponent(profile)}.refresh`);
}

/**
 * The rate-limit budget shared by the processes of one profile against one API origin: a window learnt from one
 * server never holds back requests to another (`--base-url`). Names stay readable; an origin too long for a file
 * name is replaced by its hash.
 */
export function rateLimitFile(env: Env, profile: string, baseUrl: string): string {
  const origin = new URL(baseUrl).origin;
  let name = encodeURIComponent(origin);
  if (name.length > 200) name = crypto().createHash('sha256').update(origin).digest('hex');
  return join(configDir(env), 'rate-limit', encodeURIComponent(profile), `${name}.json`);
}
