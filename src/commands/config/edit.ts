// `clinic config set|unset|use-profile`: changes to the config file, through the context.

import type { CommandRun } from '../../cli/command.js';
import { checkProfileName, profileOf, setPath } from '../../core/config/config-file.js';
import { checkValue, keySpec } from '../../core/config/keys.js';

export const set: CommandRun = async ({ args: [key = '', value = ''] }, ctx) => {
  const checked = checkValue(key, value);
  const profile = await ctx.editProfile((p) => setPath(p, key, checked));
  ctx.io.err(`${key} set in profile ${profile}`);
};

export const unset: CommandRun = async ({ args: [key = ''] }, ctx) => {
  keySpec(key);
  const profile = await ctx.editProfile((p) => setPath(p, key, undefined));
  ctx.io.err(`${key} unset in profile ${profile}`);
};

export const useProfile: CommandRun = async ({ args: [name = ''] }, ctx) => {
  checkProfileName(name);
  let known = false;
  await ctx.editConfig((data) => {
    known = profileOf(data, name) !== undefined;
    data.current_profile = name;
  });
  if (!known) ctx.io.err(`note: profile ${name} has no settings yet`);
  ctx.io.err(`current profile: ${name}`);
};
