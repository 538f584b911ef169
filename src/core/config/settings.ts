// Effective settings: command-line flag > environment variable > selected profile > built-in default.
import { UsageError } from '../errors.js';
import {
  type ConfigData,
  checkProfileName,
  dict,
  getPath,
  own,
  type Profile,
  profileOf,
} from './config-file.js';
import {
  CONFIG_KEYS,
  DEFAULTS,
  type KeySpec,
  keySpec,
  readSetting,
  type SettingKey,
  type SettingValues,
} from './keys.js';
import type { Env } from './paths.js';

export type Source = 'flag' | 'env' | 'profile' | 'default';

export interface Setting {
  key: string;
  value: string | undefined;
  source: Source | undefined;
}

export interface ProfileChoice {
  name: string;
  source: 'flag' | 'env' | 'config' | 'default';
}

/**
 * A clinic command to run for this profile, as advice: `--profile NAME` only when that flag chose it (run without it,
 * the command would act on the profile the environment or the config file selects).
 */
export function profileCommand(profile: ProfileChoice, command: string): string {
  return `clinic${profile.source === 'flag' ? ` --profile ${profile.name}` : ''} ${command}`;
}

/** `--profile` > `CLINIC_PROFILE` > `current_profile` in the file > `default`. */
export function selectProfile(flag: string | undefined, env: Env, data: ConfigData): ProfileChoice {
  // `--profile ''` is refused, never taken for "no choice" (an empty variable is unset, as for every CLINIC_*).
  if (flag !== undefined) return { name: checkProfileName(flag), source: 'flag' };
  if (env.CLINIC_PROFILE) return { name: checkProfileName(env.CLINIC_PROFILE), source: 'env' };
  if (data.current_profile) return { name: checkProfileName(data.current_profile), source: 'config' };
  return { name: 'default', source: 'default' };
}

export class Settings {
  constructor(
    readonly profile: ProfileChoice,
    private readonly data: ConfigData,
    private readonly env: Env,
    /** Values given on the command line, by config key (e.g. base_url from --base-url). */
    private readonly flags: Readonly<Record<string, string | undefined>> = {},
  ) {}

  /**
   * Another profile's settings: its own values and the defaults only. Flags and CLINIC_* overrides are given for
   * the selected profile, so they never follow a command (logout --all-profiles…) to the others.
   */
  forProfile(name: string): Settings {
    if (name === this.profile.name) return this;
    return new Settings({ name, source: 'flag' }, this.data, {});
  }

  /** The same settings with one more command-line value (`tenant` once --tenant is resolved to an id). */
  withFlag(key: SettingKey, value: string): Settings {
    return new Settings(this.profile, this.data, this.env, { ...this.flags, [key]: value });
  }

  /** This profile as its file has it: no flag, no environment override (what an old sign-in is bound to). */
  own(): Settings {
    return new Settings(this.profile, this.data, {});
  }

  get profileData(): Profile {
    return profileOf(this.data, this.profile.name) ?? dict();
  }

  get profileExists(): boolean {
    return profileOf(this.data, this.profile.name) !== undefined;
  }

  /**
   * The effective value of a key, checked and typed by key (`realtime.port` a number, `output` a format); a bad
   * flag or env value is a usage error naming where it came from.
   */
  get<K extends SettingKey>(key: K): SettingValues[K] | undefined {
    const { value } = this.describe(key);
    return value === undefined ? undefined : readSetting(key, value);
  }

  /** The effective value as its checked text, and where it comes from (what `config get` and doctor show). */
  describe(key: string): Setting {
    const spec = keySpec(key);
    // The first place that sets it, each looked at only if the ones before it do not (asked many times a run).
    const flag = this.flags[key];
    if (flag !== undefined) return this.checked(spec, flag, 'flag');
    const env = this.env[spec.env] || undefined;
    if (env !== undefined) return this.checked(spec, env, 'env');
    const profile = getPath(this.profileData, key);
    if (profile !== undefined) return this.checked(spec, profile, 'profile');
    const fallback = own(DEFAULTS, key);
    if (fallback !== undefined) return this.checked(spec, fallback, 'default');
    // Asked only now: a value set anywhere above never depends on the setting it would derive from.
    const derived = this.derivedDefault(key);
    return { key, value: derived, source: derived === undefined ? undefined : 'default' };
  }

  /** `raw`, from `source`, checked as its key's kind; a bad value is a usage error naming where it came from. */
  private checked(spec: KeySpec, raw: string, source: Source): Setting {
    try {
      return { key: spec.key, value: spec.check(raw), source };
    } catch (error) {
      if (error instanceof UsageError) throw new UsageError(`${this.origin(spec, source)}: ${error.message}`);
      throw error;
    }
  }

  /** Where a value from `source` was given, as an error names it (`--base-url`, `CLINIC_BASE_URL`). */
  private origin(spec: KeySpec, source: Source): string {
    if (source === 'flag') return `--${spec.key.replaceAll('_', '-')}`;
    if (source === 'env') return spec.env;
    if (source === 'profile') return `'${spec.key}' in profile ${this.profile.name}`;
    return 'default';
  }

  /** A default that follows from another setting: the channel authorization endpoint under base_url. */
  private derivedDefault(key: string): string | undefined {
    if (key !== 'realtime.auth_endpoint') return undefined;
    const base = this.describe('base_url').value;
    return base === undefined ? undefined : `${base}/broadcasting/auth`;
  }

  /** The environment variable that overrides `key` in this run, if one is set (a change to the file waits on it). */
  overriddenBy(key: SettingKey): string | undefined {
    const { env } = keySpec(key);
    return this.env[env] ? env : undefined;
  }

  all(): Setting[] {
    return CONFIG_KEYS.map((spec) => this.describe(spec.key));
  }
}
