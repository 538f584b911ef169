// `clinic config set|unset|use-profile`: changes to the config file.

import { defineCommand } from '../../cli/command.js';
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

export const set = defineCommand({
  name: 'set',
  summary: 'set a key in the selected profile',
  args: [
    { name: 'key', description: 'config key, e.g. base_url or realtime.host' },
    { name: 'value', description: 'the value' },
  ],
  examples: [
    'clinic config set base_url https://api.example.com/api',
    'clinic --profile prod config set tenant 12',
  ],
  async run({ args: [key = '', value = ''] }, ctx) {
    const checked = checkValue(key, value);
    const profile = await editProfile(ctx, (p) => setPath(p, key, checked));
    ctx.io.err(`${key} set in profile ${profile}`);
  },
});

export const unset = defineCommand({
  name: 'unset',
  summary: 'remove a key from the selected profile',
  args: [{ name: 'key', description: 'config key' }],
  examples: ['clinic config unset tenant'],
  async run({ args: [key = ''] }, ctx) {
    keySpec(key);
    const profile = await editProfile(ctx, (p) => setPath(p, key, undefined));
    ctx.io.err(`${key} unset in profile ${profile}`);
  },
});

export const useProfile = defineCommand({
  name: 'use-profile',
  summary: 'make a profile the current one',
  args: [{ name: 'name', description: 'profile name' }],
  examples: ['clinic config use-profile sandbox'],
  async run({ args: [name = ''] }, ctx) {
    checkProfileName(name);
    const data = await ctx.config();
    if (!data.profiles[name]) ctx.io.err(`note: profile ${name} has no settings yet`);
    data.current_profile = name;
    await saveConfig(ctx.env, data);
    ctx.io.err(`current profile: ${name}`);
  },
});
