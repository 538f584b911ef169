// `clinic config set|unset|use-profile`: changes to the config file.

import type { CommandRun } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import {
  checkProfileName,
  type Profile,
  saveConfig,
  setPath,
  updateProfile,
} from '../../core/config/config-file.js';
import { checkValue, keySpec } from '../../core/config/keys.js';

async function editProfile(ctx: Context, change: (profile: Profile) => void): Promise<string> {
  const name = (await ctx.settings()).profile.name;
  await updateProfile(ctx.env, name, change);
  return name;
}

export const set: CommandRun = async ({ args: [key = '', value = ''] }, ctx) => {
  const checked = checkValue(key, value);
  const profile = await editProfile(ctx, (p) => setPath(p, key, checked));
  ctx.io.err(`${key} set in profile ${profile}`);
};

export const unset: CommandRun = async ({ args: [key = ''] }, ctx) => {
  keySpec(key);
  const profile = await editProfile(ctx, (p) => setPath(p, key, undefined));
  ctx.io.err(`${key} unset in profile ${profile}`);
};

export const useProfile: CommandRun = async ({ args: [name = ''] }, ctx) => {
  checkProfileName(name);
  const data = await ctx.config();
  if (!data.profiles[name]) ctx.io.err(`note: profile ${name} has no settings yet`);
  data.current_profile = name;
  await saveConfig(ctx.env, data);
  ctx.io.err(`current profile: ${name}`);
};
