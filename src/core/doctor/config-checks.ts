// The first two checks: the config file and its modes, then the selected profile and where each setting comes from.
import { lstat, stat } from 'node:fs/promises';
import { CONFIG_KEYS } from '../config/keys.js';
import { configDir, configFile, credentialsFile } from '../config/paths.js';
import { profileCommand, type Setting, type Source } from '../config/settings.js';
import { type Check, fail, ok, reason, skip, warn } from './check.js';
import { shellWord } from '../system-error.js';
import { errorCode, notADirectoryFix, pathProblem } from './path-problems.js';

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');
const loose = (mode: number) => (mode & 0o077) !== 0;

async function statOrUndefined(path: string, follow: boolean) {
  try {
    return await (follow ? stat(path) : lstat(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The config file, its directory and credentials.json: present, private (0600/0700), not a symlink, valid JSON. */
export const configFileCheck: Check = {
  name: 'config-file',
  limitMs: () => 3000,
  async run(deps, found) {
    const name = 'config-file';
    const file = configFile(deps.env);
    const dir = configDir(deps.env);
    const facts: Record<string, unknown> = { path: file, dir };
    // Looked at before anything reads the file: reading tightens loose modes (and says so on stderr).
    let dirStat;
    let fileStat;
    try {
      dirStat = await statOrUndefined(dir, true);
      if (dirStat && !dirStat.isDirectory()) {
        found.settingsBroken = 'the config directory is not a directory';
        return fail(
          name,
          `${dir} is not a directory, so ${file} cannot be in it`,
          notADirectoryFix(dir),
          facts,
        );
      }
      fileStat = await statOrUndefined(file, false);
    } catch (error) {
      const problem = pathProblem(error, dir, file);
      found.settingsBroken = problem.broken;
      return fail(name, problem.detail, problem.fix, facts);
    }
    if (!fileStat) {
      if (deps.env.CLINIC_BASE_URL)
        return ok(name, `none at ${file}; settings come from the environment`, facts);
      return warn(
        name,
        `no config file at ${file}`,
        "run: clinic sandbox start (writes a 'sandbox' profile), or clinic config set base_url URL",
        facts,
      );
    }
    if (fileStat.isSymbolicLink()) {
      found.settingsBroken = 'the config file is a symbolic link';
      return fail(
        name,
        `${file} is a symbolic link; clinic refuses to follow it`,
        'replace the link with the file itself',
        facts,
      );
    }
    try {
      await deps.config();
    } catch (error) {
      found.settingsBroken = 'the config file cannot be read';
      if (errorCode(error) === 'EACCES' || errorCode(error) === 'EPERM')
        return fail(
          name,
          `${file} cannot be read: permission denied`,
          `run: ls -l ${shellWord(file)} (its owner and mode); as its owner: chmod 600 ${shellWord(file)}`,
          facts,
        );
      return fail(name, reason(error), `fix ${file}, or move it away and set the profile up again`, facts);
    }
    const modes = [`${octal(fileStat.mode)}`, `dir ${octal(dirStat?.mode ?? 0)}`];
    facts.mode = octal(fileStat.mode);
    facts.dir_mode = octal(dirStat?.mode ?? 0);
    const problems: string[] = [];
    const fixes: string[] = [];
    if (loose(fileStat.mode)) {
      problems.push(`${file} is ${octal(fileStat.mode)}`);
      fixes.push(`chmod 600 ${shellWord(file)}`);
    }
    if (dirStat && loose(dirStat.mode)) {
      problems.push(`${dir} is ${octal(dirStat.mode)}`);
      fixes.push(`chmod 700 ${shellWord(dir)}`);
    }
    const credentials = credentialsFile(deps.env);
    const credStat = await statOrUndefined(credentials, false).catch(() => undefined);
    if (credStat) {
      facts.credentials_mode = octal(credStat.mode);
      modes.push(`credentials.json ${octal(credStat.mode)}`);
      if (credStat.isSymbolicLink()) {
        problems.push(`${credentials} is a symbolic link`);
        fixes.push(`replace ${credentials} with the file itself`);
      } else if (loose(credStat.mode)) {
        problems.push(`${credentials} is ${octal(credStat.mode)}`);
        fixes.push(`chmod 600 ${shellWord(credentials)}`);
      }
    }
    if (problems.length > 0) {
      // clinic tightens what it reads, but until then (and in backups) others could read it.
      return warn(
        name,
        `${problems.join(', ')}: readable by others`,
        `run: ${fixes.join('; ')} (clinic also tightens them when it reads them)`,
        facts,
      );
    }
    return ok(name, `${file} (${modes.join(', ')})`, facts);
  },
};

const PROFILE_SOURCE: Record<string, string> = {
  flag: '--profile',
  env: 'CLINIC_PROFILE',
  config: 'current_profile',
  default: 'default',
};

/** `base_url, tenant, realtime.* from the profile; scopes default`: the keys set, grouped by where they come from. */
export function describeSources(settings: readonly Setting[]): string {
  const order: Source[] = ['flag', 'env', 'profile', 'default'];
  const words: Record<Source, string> = {
    flag: 'from flags',
    env: 'from the environment',
    profile: 'from the profile',
    default: 'default',
  };
  const parts: string[] = [];
  for (const source of order) {
    const keys = settings.filter((s) => s.source === source).map((s) => s.key);
    if (keys.length === 0) continue;
    const realtime = keys.filter((k) => k.startsWith('realtime.'));
    const shown =
      realtime.length > 1 ? [...keys.filter((k) => !k.startsWith('realtime.')), 'realtime.*'] : keys;
    const named =
      source === 'env' ? shown.map((k) => CONFIG_KEYS.find((spec) => spec.key === k)?.env ?? k) : shown;
    parts.push(`${named.join(', ')} ${words[source]}`);
  }
  return parts.join('; ') || 'nothing set';
}

/** The selected profile, why it was selected, and each setting's value and source. */
export const profileCheck: Check = {
  name: 'profile',
  limitMs: () => 3000,
  async run(deps, found) {
    const name = 'profile';
    if (found.settingsBroken) return skip(name, found.settingsBroken);
    let settings;
    try {
      settings = await deps.settings();
    } catch (error) {
      found.settingsBroken = 'no profile could be selected';
      return fail(name, reason(error), 'pass a valid --profile NAME (clinic config profiles lists them)');
    }
    const choice = settings.profile;
    const described: Setting[] = [];
    const bad: string[] = [];
    for (const spec of CONFIG_KEYS) {
      try {
        described.push(settings.describe(spec.key));
      } catch (error) {
        bad.push(reason(error));
      }
    }
    const facts = {
      profile: choice.name,
      selected_by: PROFILE_SOURCE[choice.source],
      settings: described.filter((s) => s.source !== undefined),
    };
    const head = `${choice.name} (${choice.source === 'default' ? 'the default' : `from ${PROFILE_SOURCE[choice.source]}`})`;
    if (bad.length > 0) {
      found.settingsBroken = 'a setting is invalid';
      return fail(
        name,
        `${head}: ${bad.join('; ')}`,
        `correct the value, or unset it (${profileCommand(choice, 'config unset KEY')})`,
        facts,
      );
    }
    found.settings = settings; // also for a missing profile: the keychain check still runs
    const set = profileCommand(choice, 'config set');
    if (!settings.profileExists && choice.source !== 'default' && !settings.get('base_url')) {
      found.settingsBroken = `profile '${choice.name}' does not exist`;
      return fail(
        name,
        `${head}: there is no profile '${choice.name}' in the config file`,
        `clinic config profiles lists the profiles; create this one with: ${set} base_url URL`,
        facts,
      );
    }
    const baseUrl = settings.get('base_url');
    if (!baseUrl) {
      found.unreachable = 'no base_url is set';
      return fail(
        name,
        `${head}: no base_url`,
        `run: ${set} base_url URL (or clinic sandbox start for a local sandbox)`,
        facts,
      );
    }
    found.baseUrl = baseUrl;
    return ok(name, `${head}: ${describeSources(described)}`, facts);
  },
};
