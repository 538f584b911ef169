// `clinic config get|list|profiles`: reading the configuration.
import type { CommandRun } from '../../cli/command.js';
import { createListWriter } from '../../cli/output/render.js';
import { own, profileOf } from '../../core/config/config-file.js';
import { keySpec } from '../../core/config/keys.js';

export const get: CommandRun = async ({ args: [key = ''] }, ctx) => {
  keySpec(key);
  const settings = await ctx.settings();
  const { value } = settings.describe(key);
  if (value === undefined) throw new Error(`${key} is not set in profile ${settings.profile.name}`);
  await ctx.io.write(`${value}\n`);
};

export const list: CommandRun = async (_input, ctx) => {
  const settings = await ctx.settings();
  const writer = createListWriter(ctx.io, await ctx.output(), [
    { header: 'KEY', path: 'key' },
    { header: 'VALUE', path: 'value' },
    { header: 'SOURCE', path: 'source' },
  ]);
  for (const setting of settings.all()) {
    if (setting.value !== undefined) await writer.write({ ...setting, profile: settings.profile.name });
  }
  await writer.end();
};

export const profiles: CommandRun = async (_input, ctx) => {
  const [data, settings] = await Promise.all([ctx.config(), ctx.settings()]);
  const writer = createListWriter(ctx.io, await ctx.output(), [
    { header: 'PROFILE', path: 'name' },
    { header: 'SELECTED', path: 'selected' },
    { header: 'BASE URL', path: 'base_url' },
    { header: 'TENANT', path: 'tenant' },
  ]);
  const names = new Set([...Object.keys(data.profiles), settings.profile.name]);
  for (const name of [...names].sort()) {
    const profile = profileOf(data, name) ?? {};
    await writer.write({
      name,
      selected: name === settings.profile.name,
      current: name === data.current_profile,
      base_url: own(profile, 'base_url') ?? null,
      tenant: own(profile, 'tenant') ?? null,
    });
  }
  await writer.end();
};
