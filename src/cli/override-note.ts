// A change to the config file that this shell's environment overrides (CLINIC_TENANT set while `tenants use` saves
// another tenant): said, or the user wonders why nothing changed.
import type { SettingKey } from '../core/config/keys.js';
import type { Context } from './context.js';

export async function noteOverride(ctx: Context, key: SettingKey): Promise<void> {
  const env = (await ctx.settings()).overriddenBy(key);
  if (env) ctx.io.err(`note: ${env} is set in this environment and overrides ${key} while it is`);
}
