// The terminal side of the browser sign-in: spinner, the pasted-address prompt, and the result as credentials.
import { browserLogin } from '../../core/auth/oauth/login-flow.js';
import { toStoredCredentials } from '../../core/auth/oauth/token-response.js';
import type { StoredCredentials } from '../../core/auth/credential-store.js';
import type { Context } from '../../cli/context.js';
import { oauthClientSettings } from '../../core/auth/oauth/client-settings.js';
import { loginCommand } from '../../core/auth/session.js';
import { DEFAULTS } from '../../core/config/keys.js';
import { CancelledError } from '../../core/errors.js';
import { answered } from '../../cli/prompter.js';

export interface BrowserSignInOptions {
  /** Undefined: the profile's `scopes` (default "openid *"). */
  scopes?: string;
  port: number;
  timeoutSeconds: number;
  openBrowser: boolean;
}

/**
 * Why a pasted answer is not the address the browser ended on, or true: the prompt says why and asks again (the
 * browser's sign-in is not lost to a slip of the mouse). An empty answer keeps the prompt up, saying what it waits for.
 */
export function pastedProblem(text: string, redirectUri: string): string | true {
  const trimmed = text.trim();
  if (trimmed === '')
    return `waiting for the browser to come back to ${redirectUri}; or paste the address it ended on (Ctrl-C to stop)`;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return `that is not an address: paste the one the browser ended on (${redirectUri}?…)`;
  }
  const expected = new URL(redirectUri);
  if (url.origin !== expected.origin || url.pathname !== expected.pathname)
    return `that is not the address the browser ended on: it starts with ${redirectUri}?`;
  return true;
}

/** With --no-browser: the address the browser ended on, typed at a prompt or given as the first line of stdin. */
async function pastedUrl(
  ctx: Context,
  redirectUri: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (ctx.io.canPrompt) {
    const { input } = await import('@inquirer/prompts');
    const { streams } = ctx.io;
    try {
      return await answered(
        input(
          {
            message: 'Or paste the address your browser ended on (http://127.0.0.1:…/callback?…):',
            validate: (text) => pastedProblem(text, redirectUri),
          },
          { signal, input: streams.stdin, output: streams.stderr },
        ),
        undefined,
        streams.stdin,
      );
    } catch (error) {
      if (error instanceof CancelledError) throw error; // Ctrl-C at the prompt
      return undefined; // aborted (the loopback listener got the answer first), or Ctrl-D: wait for the browser
    }
  }
  if (ctx.io.stdinIsTTY) return undefined;
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: ctx.io.streams.stdin });
  signal.addEventListener('abort', () => lines.close(), { once: true });
  for await (const line of lines) if (line.trim() !== '') return line;
  return undefined;
}

export interface BrowserSignIn {
  credentials: StoredCredentials;
  /** Who signed in, from the ID token when there is one. */
  who?: string;
}

export async function browserSignIn(options: BrowserSignInOptions, ctx: Context): Promise<BrowserSignIn> {
  const settings = await ctx.settings();
  await oauthClientSettings(settings); // missing auth_url or client_id: a usage error before anything starts
  const scopes = options.scopes ?? settings.get('scopes') ?? DEFAULTS.scopes;
  const server = await ctx.authServer();
  // Nothing here can show a browser (a headless machine over SSH): the --no-browser way, said so.
  const noDisplay = options.openBrowser && ctx.browser.canOpen?.() === false;
  if (noDisplay)
    ctx.io.alert(
      'No browser can be opened here (no DISPLAY, WAYLAND_DISPLAY or BROWSER): sign in from a browser on any ' +
        'machine, then paste the address it ends on.',
    );
  const openBrowser = options.openBrowser && !noDisplay;
  const prompting = !openBrowser && ctx.io.canPrompt;
  const tokens = await browserLogin(
    server,
    { ...options, openBrowser, scopes, loginCommand: loginCommand(settings.profile) },
    {
      browser: ctx.browser,
      // What to do to sign in is no note: --quiet keeps it.
      say: (line) => ctx.io.alert(line),
      pastedUrl: openBrowser ? undefined : (redirect, signal) => pastedUrl(ctx, redirect, signal),
      waiting: prompting
        ? undefined
        : async () => {
            const progress = await ctx.io.progress(
              'Waiting for the sign-in in the browser… (Ctrl-C to cancel)',
            );
            return () => progress.stop();
          },
      signal: ctx.signal,
    },
  );
  const claims = tokens.claims?.();
  const name = typeof claims?.name === 'string' ? claims.name : undefined;
  const email = typeof claims?.email === 'string' ? ` <${claims.email}>` : '';
  return {
    credentials: toStoredCredentials(tokens, ctx.clock.now()),
    who: name ? `${name}${email}` : undefined,
  };
}
