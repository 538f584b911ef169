// `clinic auth status` and `clinic auth token`: who is signed in, where the token lives, and the token itself.

import type { CommandRun } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { ownField } from '../../cli/output/fields.js';
import { HumanTimes } from '../../cli/output/time.js';
import { showRecord } from '../../cli/present.js';
import { getAccount } from '../../core/api/resources.js';
import { notLoggedInHint } from '../../core/auth/session.js';
import { AuthError, UsageError } from '../../core/errors.js';

export async function authStatus(ctx: Context): Promise<void> {
  const [settings, session] = await Promise.all([ctx.settings(), ctx.session()]);
  const stored = session.envToken ? undefined : await session.stored();
  if (!session.envToken && !stored) {
    throw new AuthError(
      `not logged in (profile ${settings.profile.name})`,
      notLoggedInHint(settings.profile),
    );
  }
  const kind = session.storeKind();
  const account = await getAccount(await ctx.http());
  await showRecord(ctx, {
    profile: settings.profile.name,
    base_url: settings.get('base_url') ?? null,
    // Whatever the server sent, even an account that is no object: the renderers take any value.
    user: { id: ownField(account, 'id'), name: ownField(account, 'name'), email: ownField(account, 'email') },
    tenant: settings.get('tenant') ?? null,
    token_source: session.envToken
      ? 'CLINIC_TOKEN'
      : stored?.kind === 'pat'
        ? 'personal access token'
        : 'login',
    storage: session.envToken ? 'environment (never stored)' : kind ? ctx.store(kind).location : null,
    scopes: stored?.scopes?.join(' ') ?? null,
    expires_at: stored?.expires_at ?? null,
  });
}

export const status: CommandRun = (_input, ctx) => authStatus(ctx);

export const refresh: CommandRun = async (_input, ctx) => {
  const session = await ctx.session();
  if (session.envToken) throw new UsageError('CLINIC_TOKEN is used as is and never refreshed');
  const credentials = await session.forceRefresh();
  const at = credentials.expires_at ? Date.parse(credentials.expires_at) : Number.NaN;
  const expiry = Number.isFinite(at)
    ? `expires ${whenAsPeopleRead(ctx, at)}`
    : 'has no stated expiry: it is used until the API refuses it, then refreshed';
  ctx.io.err(`refreshed profile ${session.profile}; the access token ${expiry}`);
};

/** `in 59 min (2026-11-29 13:41, times in Europe/Paris (UTC+01:00))`: an instant as the record views show one. */
function whenAsPeopleRead(ctx: Context, ms: number): string {
  const times = new HumanTimes(ctx.globals.utc, ctx.env.TZ);
  times.shown(ms);
  const minutes = Math.round((ms - ctx.clock.now()) / 60_000);
  const hours = Math.round(minutes / 60);
  const within =
    minutes < 1
      ? 'within a minute'
      : minutes < 120
        ? `in ${minutes} min`
        : hours < 48
          ? `in ${hours} h`
          : `in ${Math.round(hours / 24)} days`;
  const zone = times.zoneNote();
  return `${within} (${times.at(ms)}${zone ? `, ${zone}` : ''})`;
}

export const token: CommandRun = async (_input, ctx) => {
  const session = await ctx.session();
  await ctx.io.write(`${await session.accessToken()}\n`);
};
