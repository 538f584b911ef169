// `clinic config set|unset|use-profile`: changes to the config file, through the context.

import { TENANT_SLUGS } from '../../cli/account-tenants.js';
import type { CommandRun } from '../../cli/command.js';
import { checkProfileName, dict, profileOf, setPath } from '../../core/config/config-file.js';
import { checkValue, keySpec } from '../../core/config/keys.js';
import { noteOverride } from '../../cli/override-note.js';
import { UsageError } from '../../core/errors.js';
import type { USE_PROFILE_OPTIONS } from './index.js';

export const set: CommandRun = async ({ args: [key = '', value = ''] }, ctx) => {
  const checked = checkValue(key, value);
  const profile = await ctx.editProfile((p) => setPath(p, key, checked));
  ctx.io.err(`${key} set in profile ${profile}`);
  await noteOverride(ctx, keySpec(key).key);
};

export const unset: CommandRun = async ({ args: [key = ''] }, ctx) => {
  if (key !== TENANT_SLUGS) keySpec(key); // the remembered tenant slugs are no setting, but may be cleared
  const profile = await ctx.editProfile((p) => setPath(p, key, undefined));
  ctx.io.err(`${key} unset in profile ${profile}`);
};

/** An unknown name is refused (a typo would leave every later command on an empty profile); --create makes it. */
export const useProfile: CommandRun<typeof USE_PROFILE_OPTIONS> = async (
  { args: [name = ''], options },
  ctx,
) => {
  checkProfileName(name);
  await ctx.editConfig((data) => {
    // `default` is the profile used when none is chosen: it exists without being in the file.
    if (profileOf(data, name) === undefined && name !== 'default') {
      if (!options.create) {
        const known = Object.keys(data.profiles).sort().join(', ') || 'none yet';
        throw new UsageError(
          `no profile '${name}' (profiles: ${known}); to make a new one: clinic config use-profile ${name} --create`,
        );
      }
      data.profiles[name] = dict();
    }
    data.current_profile = name;
  });
  ctx.io.err(`current profile: ${name}`);
};
