// `clinic login`: the browser sign-in (Authorization Code + PKCE, loopback redirect) or a token from stdin.
import { ownField } from '../../cli/output/fields.js';
import { textOf } from '../../cli/output/text.js';
import { sanitize } from '../../cli/output/sanitize.js';
import { getAccountRequest, recordOf } from '../../core/api/resources.js';
import type { Account } from '../../core/api/types.js';
import {
  KeychainUnavailableError,
  type StoreKind,
  type StoredCredentials,
} from '../../core/auth/credential-store.js';
import { signInOrigins } from '../../core/auth/binding.js';
import { noKeychainMessage, storeForLogin } from '../../core/auth/store-choice.js';
import { setPath } from '../../core/config/config-file.js';
import { ApiError, AuthError, UsageError } from '../../core/errors.js';
import { type CommandInput, verb } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { answered } from '../../cli/prompter.js';
import type { LOGIN_OPTIONS } from './index.js';
import type { BrowserSignInOptions } from './browser-sign-in.js';

export interface LoginOptions {
  withToken: boolean;
  insecureStorage: boolean;
  browser: BrowserSignInOptions;
}

export function parseLoginOptions({ options }: CommandInput<typeof LOGIN_OPTIONS>): LoginOptions {
  const scopes = options.scopes?.trim().replace(/\s+/g, ' ');
  if (scopes === '')
    throw new UsageError('--scopes needs at least one scope, e.g. --scopes "openid customers:read"');
  return {
    withToken: options.withToken === true,
    insecureStorage: options.insecureStorage === true,
    browser: {
      scopes,
      port: options.port ?? 0,
      timeoutSeconds: options.timeout ?? 300,
      openBrowser: options.browser !== false,
    },
  };
}

/** No usable keychain: exit 3 and the two ways on; other errors as they are. */
function withKeychainAdvice(error: unknown): unknown {
  return error instanceof KeychainUnavailableError ? new AuthError(noKeychainMessage(error.reason)) : error;
}

/** A name no profile can have (profile names never start with '.'). */
const PROBE_ACCOUNT = '.clinic-probe';

/**
 * Finds out before the user signs in that the token could be kept: a keychain must take (and give back) a probe
 * entry, as reading alone succeeds on a locked keychain; the file must be readable and not a symlink.
 */
async function checkStoreWritable(kind: 'keychain' | 'file', profile: string, ctx: Context): Promise<void> {
  const store = ctx.store(kind);
  try {
    if (kind === 'file') {
      await store.get(profile);
      return;
    }
    await store.set(PROBE_ACCOUNT, { kind: 'pat', access_token: 'probe' });
    await store.delete(PROBE_ACCOUNT);
  } catch (error) {
    throw withKeychainAdvice(error);
  }
}

async function readToken(ctx: Context): Promise<string> {
  const { io } = ctx;
  let text: string;
  if (io.stdinIsTTY) {
    if (!io.canPrompt) {
      const why = ctx.globals.input ? '' : ' (--no-input forbids asking for it here)';
      throw new UsageError(`--with-token reads the token from standard input: pipe it in${why}`);
    }
    const { password } = await import('@inquirer/prompts');
    const where = { input: io.streams.stdin, output: io.streams.stderr, signal: ctx.signal };
    text = await answered(
      password({ message: 'Paste a personal access token:', mask: true }, where),
      ctx.signal,
      io.streams.stdin,
    );
  } else {
    text = await io.readStdin();
  }
  const token = text.trim();
  if (token === '') throw new UsageError('no token on standard input');
  if (/\s/.test(token)) throw new UsageError('the token on standard input must be one line without spaces');
  return token;
}

/** The user behind a token, from GET /v1/account; a 401 means the token is no good. */
/** `Ada Admin <ada@example.com>`, whatever the server sent as name and email (never calls a method of them). */
const userText = (account: unknown): string =>
  `${textOf(ownField(account, 'name'))} <${textOf(ownField(account, 'email'))}>`;

async function accountFor(token: string, ctx: Context): Promise<Account> {
  const client = await ctx.http({ auth: false });
  try {
    const response = await client.request({
      ...getAccountRequest(),
      headers: { authorization: `Bearer ${token}` },
    });
    return recordOf<Account>(response, 'the account');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401)
      throw new AuthError('the server rejected this token (401)');
    throw error;
  }
}

/** Keeps the sign-in in the chosen store and records the store in the profile; nothing is kept on failure. */
async function keep(credentials: StoredCredentials, options: LoginOptions, ctx: Context): Promise<string> {
  const settings = await ctx.settings();
  const kind = storeForLogin(options.insecureStorage, ctx.env, settings.profileData.credential_store);
  const store = ctx.store(kind);
  // Under the sign-in's lock: a refresh under way (another command's) writes its pair first, never over this one.
  await ctx.withSignInLock(kind, settings.profile.name, async () => {
    try {
      await store.set(settings.profile.name, credentials);
    } catch (error) {
      throw withKeychainAdvice(error);
    }
  });
  const previous = settings.profileData.credential_store;
  // A sign-in made with --base-url belongs to that server: the profile keeps it, so the next command goes there.
  const baseUrl = ctx.globals.baseUrl === undefined ? undefined : settings.get('base_url');
  await ctx.editProfile((profile) => {
    setPath(profile, 'credential_store', kind);
    if (baseUrl !== undefined) setPath(profile, 'base_url', baseUrl);
  }, settings.profile.name);
  if (previous && previous !== kind) {
    // The sign-in moved: do not leave an old copy behind.
    const moved = previous as typeof kind;
    await ctx
      .withSignInLock(moved, settings.profile.name, () => ctx.store(moved).delete(settings.profile.name))
      .catch(() => false);
  }
  return store.location;
}

/** Who the profile was signed in as, if the store says (a store that cannot be read says nothing). */
async function previousUser(kind: StoreKind, profile: string, ctx: Context): Promise<string | undefined> {
  return (
    await ctx
      .store(kind)
      .get(profile)
      .catch(() => undefined)
  )?.user;
}

export async function login(options: LoginOptions, ctx: Context): Promise<void> {
  storeForLogin(options.insecureStorage, ctx.env); // a contradictory choice fails first
  const settings = await ctx.settings();
  const kind = storeForLogin(options.insecureStorage, ctx.env, settings.profileData.credential_store);
  await checkStoreWritable(kind, settings.profile.name, ctx);
  let credentials: StoredCredentials;
  let who: string;
  if (options.withToken) {
    const token = await readToken(ctx);
    const account = await accountFor(token, ctx);
    credentials = { kind: 'pat', access_token: token, token_type: 'bearer' };
    who = userText(account);
  } else {
    const { browserSignIn } = await import('./browser-sign-in.js');
    const signedIn = await browserSignIn(options.browser, ctx);
    credentials = signedIn.credentials;
    // The sign-in succeeded: a failed look-up of the name must not throw the tokens away.
    who =
      signedIn.who ??
      (await accountFor(credentials.access_token, ctx)
        .then(userText)
        .catch(() => 'the signed-in user'));
  }
  const before = await previousUser(kind, settings.profile.name, ctx);
  // Bound to the servers it was obtained from (flags and CLINIC_* included: those are where it came from).
  const origins = signInOrigins(settings);
  const location = await keep({ ...credentials, user: who, origins }, options, ctx);
  ctx.io.err(`logged in as ${sanitize(who)} (profile ${settings.profile.name}); token in ${location}`);
  const savedUrl = settings.profileData.base_url;
  if (ctx.globals.baseUrl !== undefined && savedUrl !== settings.get('base_url'))
    ctx.io.err(`base_url of profile ${settings.profile.name} is now ${settings.get('base_url')}`);
  if (before !== undefined && before !== who) {
    ctx.io.err(
      `warning: profile ${settings.profile.name} was signed in as ${sanitize(before)} before; it is now ${sanitize(who)}`,
    );
  }
}

export const run = verb(parseLoginOptions, login);
