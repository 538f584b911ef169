// `clinic login`: stores a personal access token read from stdin (--with-token); the browser sign-in plugs in here.

import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { dataOf, getAccountRequest } from '../../core/api/resources.js';
import type { Account } from '../../core/api/types.js';
import { KeychainUnavailableError, type StoredCredentials } from '../../core/auth/credential-store.js';
import { NO_KEYCHAIN_ADVICE, storeForLogin } from '../../core/auth/store-choice.js';
import { setPath, updateProfile } from '../../core/config/config-file.js';
import { ApiError, AuthError, UsageError } from '../../core/errors.js';

export interface LoginOptions {
  withToken: boolean;
  insecureStorage: boolean;
}

async function readToken(ctx: Context): Promise<string> {
  const { io } = ctx;
  let text: string;
  if (io.stdinIsTTY) {
    if (!io.canPrompt) throw new UsageError('--with-token reads the token from standard input: pipe it in');
    const { password } = await import('@inquirer/prompts');
    text = await password({ message: 'Paste a personal access token:', mask: true });
  } else {
    text = await io.readStdin();
  }
  const token = text.trim();
  if (token === '') throw new UsageError('no token on standard input');
  if (/\s/.test(token)) throw new UsageError('the token on standard input must be one line without spaces');
  return token;
}

/** Checks the token against GET /v1/account before keeping it. */
async function verify(token: string, ctx: Context): Promise<Account> {
  const client = await ctx.http({ auth: false });
  try {
    const response = await client.request({
      ...getAccountRequest(),
      headers: { authorization: `Bearer ${token}` },
    });
    return dataOf<Account>(response, 'the account');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401)
      throw new AuthError('the server rejected this token (401)');
    throw error;
  }
}

export async function login(options: LoginOptions, ctx: Context): Promise<void> {
  if (!options.withToken) {
    throw new UsageError(
      "browser sign-in is not available in this version yet; pipe a personal access token to 'clinic login --with-token'",
    );
  }
  const kind = storeForLogin(options.insecureStorage, ctx.env);
  const settings = await ctx.settings();
  const token = await readToken(ctx);
  const account = await verify(token, ctx);
  const credentials: StoredCredentials = { kind: 'pat', access_token: token, token_type: 'bearer' };
  const store = ctx.store(kind);
  try {
    await store.set(settings.profile.name, credentials);
  } catch (error) {
    if (error instanceof KeychainUnavailableError)
      throw new AuthError(`${error.message}: ${NO_KEYCHAIN_ADVICE}`);
    throw error;
  }
  const previous = settings.profileData.credential_store;
  await updateProfile(ctx.env, settings.profile.name, (profile) =>
    setPath(profile, 'credential_store', kind),
  );
  if (previous && previous !== kind) {
    // The sign-in moved: do not leave an old copy behind.
    await ctx
      .store(previous as typeof kind)
      .delete(settings.profile.name)
      .catch(() => false);
  }
  ctx.io.err(
    `logged in as ${account.name} <${account.email}> (profile ${settings.profile.name}); token in ${store.location}`,
  );
}

export default defineCommand({
  name: 'login',
  summary: 'sign in and store the token for the profile',
  description:
    'Sign in. --with-token reads a personal access token from standard input (for servers and cron jobs),\n' +
    'checks it with GET /v1/account and stores it in the OS keychain (service clinic-cli, account = profile).\n' +
    'Without a usable keychain nothing is stored: use --insecure-storage (or CLINIC_CREDENTIAL_STORE=file) for a\n' +
    '0600 file in the config directory, or set CLINIC_TOKEN instead of logging in.',
  options: [
    { flags: '--with-token', description: 'read a personal access token from standard input' },
    {
      flags: '--insecure-storage',
      description: 'store the token in a plain 0600 file instead of the keychain',
    },
  ],
  examples: [
    'echo "$CLINIC_PAT" | clinic login --with-token',
    'clinic --profile sandbox login --with-token --insecure-storage < token.txt',
  ],
  run: (input, ctx) =>
    login(
      {
        withToken: input.options.withToken === true,
        insecureStorage: input.options.insecureStorage === true,
      },
      ctx,
    ),
});
