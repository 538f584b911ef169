// `clinic config get|list|profiles`: reading the configuration.
import type { CommandRun } from '../../cli/command.js';
import type { Column } from '../../cli/output/table.js';
import { showItems } from '../../cli/present.js';
import { type ConfigData, own, profileOf } from '../../core/config/config-file.js';
import { keySpec } from '../../core/config/keys.js';

/** A setting's value is what people look for: wrapped, never cut, and the last to go; where it comes from goes first. */
export const SETTING_COLUMNS: Column[] = [
  { header: 'KEY', path: 'key', keep: true },
  { header: 'VALUE', path: 'value', priority: 9, wrap: true },
  { header: 'SOURCE', path: 'source', priority: 1 },
];

const PROFILE_COLUMNS: Column[] = [
  { header: 'PROFILE', path: 'name', keep: true },
  { header: 'SELECTED', path: 'selected', priority: 2 },
  { header: 'BASE URL', path: 'base_url', priority: 9, wrap: true },
  { header: 'TENANT', path: 'tenant', priority: 5 },
];

/**
 * Said when the selected profile is none of the config file's (a typo of `--profile`, or a file that has only others):
 * what is shown is then the defaults and the environment alone. Undefined when it is one of them, or there are none.
 */
function noSuchProfile(data: ConfigData, name: string): string | undefined {
  const names = Object.keys(data.profiles);
  if (names.length === 0 || profileOf(data, name) !== undefined) return undefined;
  return `there is no profile '${name}' in the config file (its profiles: ${names.sort().join(', ')})`;
}

export const get: CommandRun = async ({ args: [key = ''] }, ctx) => {
  const { unset } = keySpec(key);
  const [data, settings] = await Promise.all([ctx.config(), ctx.settings()]);
  const { value } = settings.describe(key);
  // Exit 1 with nothing on stdout, as `git config --get` of an unset key: a script can tell it from an empty value.
  if (value === undefined) {
    const why = noSuchProfile(data, settings.profile.name) ?? unset;
    throw new Error(`${key} is not set in profile ${settings.profile.name}${why ? `: ${why}` : ''}`);
  }
  await ctx.io.write(`${value}\n`);
};

export const list: CommandRun = async (_input, ctx) => {
  const [data, settings] = await Promise.all([ctx.config(), ctx.settings()]);
  const missing = noSuchProfile(data, settings.profile.name);
  if (missing) ctx.io.err(`note: ${missing}; shown: the defaults and the environment`);
  const set = settings.all().filter((setting) => setting.value !== undefined);
  await showItems(
    ctx,
    set.map((setting) => ({ ...setting, profile: settings.profile.name })),
    { columns: SETTING_COLUMNS },
  );
};

export const profiles: CommandRun = async (_input, ctx) => {
  const [data, settings] = await Promise.all([ctx.config(), ctx.settings()]);
  const names = new Set([...Object.keys(data.profiles), settings.profile.name]);
  const rows = [...names].sort().map((name) => {
    const profile = profileOf(data, name) ?? {};
    return {
      name,
      selected: name === settings.profile.name,
      current: name === data.current_profile,
      base_url: own(profile, 'base_url') ?? null,
      tenant: own(profile, 'tenant') ?? null,
    };
  });
  await showItems(ctx, rows, { columns: PROFILE_COLUMNS });
};
