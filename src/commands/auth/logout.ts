// `clinic logout`: deletes the profile's stored tokens (server-side revocation arrives with the OAuth login).

import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import type { StoreKind } from '../../core/auth/credential-store.js';
import { saveConfig, setPath } from '../../core/config/config-file.js';

export async function logout(allProfiles: boolean, ctx: Context): Promise<void> {
  const [data, settings] = await Promise.all([ctx.config(), ctx.settings()]);
  const names = allProfiles ? Object.keys(data.profiles) : [settings.profile.name];
  let changed = false;
  for (const name of names) {
    const profile = data.profiles[name];
    const kind = profile?.credential_store as StoreKind | undefined;
    if (!profile || !kind) {
      if (!allProfiles) ctx.io.err(`profile ${name} was not logged in`);
      continue;
    }
    const store = ctx.store(kind);
    await store.delete(name);
    setPath(profile, 'credential_store', undefined);
    changed = true;
    ctx.io.err(`logged out of profile ${name} (deleted from ${store.location})`);
  }
  if (changed) await saveConfig(ctx.env, data);
  if (ctx.env.CLINIC_TOKEN) ctx.io.err('note: CLINIC_TOKEN is still set in the environment');
}

export default defineCommand({
  name: 'logout',
  summary: "delete the profile's stored tokens",
  options: [{ flags: '--all-profiles', description: 'log out of every profile' }],
  examples: ['clinic logout', 'clinic logout --all-profiles'],
  run: (input, ctx) => logout(input.options.allProfiles === true, ctx),
});
