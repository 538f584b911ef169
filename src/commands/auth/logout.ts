// `clinic logout`: revokes an OAuth sign-in at the server when it offers revocation, then deletes it locally.
import { adoptLegacy, signInOrigins } from '../../core/auth/binding.js';
import type { StoredCredentials, StoreKind } from '../../core/auth/credential-store.js';
import { setPath } from '../../core/config/config-file.js';
import type { Settings } from '../../core/config/settings.js';
import { AuthError, UsageError } from '../../core/errors.js';
import { type CommandInput, verb } from '../../cli/command.js';
import type { LOGOUT_OPTIONS } from './index.js';
import type { Context } from '../../cli/context.js';

export interface LogoutOptions {
  allProfiles: boolean;
  endSession: boolean;
}

/** Revokes the refresh token (and the access token where the server can); never blocks the local deletion. */
async function revoke(credentials: StoredCredentials, settings: Settings, ctx: Context, endSession: boolean) {
  const client = await import('openid-client');
  const server = await ctx.authServer(settings);
  const metadata = server.serverMetadata();
  if (metadata.revocation_endpoint) {
    if (credentials.refresh_token) {
      await client.tokenRevocation(server, credentials.refresh_token, { token_type_hint: 'refresh_token' });
    }
    await client
      .tokenRevocation(server, credentials.access_token, { token_type_hint: 'access_token' })
      .catch(() => undefined); // JWT access tokens cannot be revoked everywhere; they expire
    ctx.io.err(`revoked the sign-in at ${new URL(metadata.revocation_endpoint).origin}`);
  }
  if (endSession) {
    if (!metadata.end_session_endpoint) ctx.io.err('the sign-in server offers no end-session address');
    else {
      const hint: Record<string, string> = credentials.id_token
        ? { id_token_hint: credentials.id_token }
        : {};
      await ctx.io.write(`${client.buildEndSessionUrl(server, hint).href}\n`);
    }
  }
}

/**
 * The settings to revoke a sign-in with: those in use when their auth_url is the one it came from, else the
 * profile's own (CLINIC_AUTH_URL pointing elsewhere), else none: the refresh token is never sent to another server.
 */
function revocationSettings(credentials: StoredCredentials, settings: Settings): Settings | undefined {
  const madeAt = adoptLegacy(credentials, settings).origins?.auth_url;
  if (madeAt === undefined) return undefined;
  return [settings, settings.own()].find((candidate) => signInOrigins(candidate).auth_url === madeAt);
}

export async function logout(options: LogoutOptions, ctx: Context): Promise<void> {
  const [data, current] = await Promise.all([ctx.config(), ctx.settings()]);
  const names = options.allProfiles ? Object.keys(data.profiles) : [current.profile.name];
  const failed: string[] = [];
  for (const name of names) {
    const profile = data.profiles[name];
    // Where commands find the sign-in (for the selected profile CLINIC_CREDENTIAL_STORE first, as Session does), and
    // where login put it: a forced store that holds nothing must not leave the recorded one signed in.
    const forced = name === current.profile.name ? current.get('credential_store') : undefined;
    const kinds = [...new Set([forced, profile?.credential_store])].filter(
      (kind): kind is StoreKind => kind === 'keychain' || kind === 'file',
    );
    if (!profile || kinds.length === 0) {
      if (options.allProfiles) continue;
      // A profile named (--profile, CLINIC_PROFILE) that the config does not have is a typo, most often: saying
      // "not logged in" with exit 0 would let a script believe the one it meant is signed out.
      if (!profile && current.profile.source !== 'default') {
        const known = Object.keys(data.profiles);
        throw new UsageError(
          `there is no profile '${name}'${known.length ? ` (profiles: ${known.join(', ')})` : ''}: nothing to log out of`,
        );
      }
      ctx.io.err(`profile ${name} was not logged in`);
      continue;
    }
    const deletedFrom: string[] = [];
    try {
      for (const kind of kinds) {
        // Under the sign-in's lock: a refresh under way writes its new pair first, and that pair is revoked here.
        const location = await ctx.withSignInLock(kind, name, () =>
          logOutOf(kind, name, current, options, ctx),
        );
        if (location) deletedFrom.push(location);
      }
    } catch (error) {
      // One unreachable keychain must not keep the other profiles signed in.
      failed.push(name);
      // Why the failure reported at the end happened: --quiet keeps it.
      ctx.io.alert(`warning: profile ${name} is still signed in: ${(error as Error).message}`);
      continue;
    }
    // A profile's choice of the file stays (a machine with no keychain: the next login goes there too); the keychain,
    // the default, is forgotten with the sign-in, so where none answers later the profile is just signed out.
    if (profile.credential_store === 'keychain')
      await ctx.editProfile((p) => setPath(p, 'credential_store', undefined), name);
    ctx.io.err(
      deletedFrom.length > 0
        ? `logged out of profile ${name}; deleted from ${deletedFrom.join(' and ')}`
        : `profile ${name} was not logged in (no sign-in in ${kinds.map((kind) => ctx.store(kind).location).join(' or ')})`,
    );
  }
  if (ctx.env.CLINIC_TOKEN) ctx.io.err('note: CLINIC_TOKEN is still set in the environment');
  if (failed.length > 0) {
    throw new AuthError(
      `could not delete the sign-in of ${failed.join(', ')}`,
      'unlock the keychain and run clinic logout again',
    );
  }
}

/** Revokes and deletes the sign-in of `name` in one store: where it was deleted from, or undefined if none was there. */
async function logOutOf(
  kind: StoreKind,
  name: string,
  current: Settings,
  options: LogoutOptions,
  ctx: Context,
): Promise<string | undefined> {
  const store = ctx.store(kind);
  const credentials = await store.get(name).catch(() => undefined);
  if (credentials?.kind === 'oauth') {
    // Each profile with its own settings: overrides given for the selected one never reach the others.
    const settings = revocationSettings(credentials, current.forProfile(name));
    if (settings) {
      await revoke(credentials, settings, ctx, options.endSession).catch((error: Error) =>
        ctx.io.err(`warning: could not revoke at the server (${error.message}); deleting locally`),
      );
    } else {
      const made =
        adoptLegacy(credentials, current.forProfile(name)).origins?.auth_url ?? 'an unrecorded server';
      ctx.io.err(
        `warning: not revoked: the sign-in of profile ${name} was made at ${made}, which its auth_url no longer ` +
          'names; deleting locally',
      );
    }
  }
  return (await store.delete(name)) || credentials ? store.location : undefined;
}

export function parseLogoutOptions({ options }: CommandInput<typeof LOGOUT_OPTIONS>) {
  if (options.allProfiles && options.endSession) {
    throw new UsageError('--end-session works on one profile at a time');
  }
  return { allProfiles: options.allProfiles === true, endSession: options.endSession === true };
}

export const run = verb(parseLogoutOptions, logout);
