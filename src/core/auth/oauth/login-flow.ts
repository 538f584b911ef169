// Authorization Code + PKCE (S256) through a loopback redirect: the whole browser sign-in, minus the terminal.
import type { Configuration } from 'openid-client';
import { AuthError, CancelledError, UsageError } from '../../errors.js';
import type { BrowserOpener } from './browser.js';
import { checkCallback, startLoopback } from './loopback.js';
import type { TokenAnswer } from './token-response.js';
import { refusalWithin } from './authorization-server.js';

export interface BrowserLoginOptions {
  scopes: string;
  /** 0 = any free port. */
  port: number;
  timeoutSeconds: number;
  openBrowser: boolean;
  /** How to sign in again after a time-out (default `clinic login`; with the profile when --profile chose it). */
  loginCommand?: string;
}

export interface BrowserLoginHooks {
  browser: BrowserOpener;
  /** Tells the user what to do (stderr). */
  say(line: string): void;
  /** With --no-browser: the redirect address pasted by the user, if they paste one. */
  pastedUrl?(redirectUri: string, signal: AbortSignal): Promise<string | undefined>;
  /** Called once the address is shown and the wait begins; returns how to end the waiting display. */
  waiting?(): Promise<() => void>;
  signal: AbortSignal;
}

export async function browserLogin(
  server: Configuration,
  options: BrowserLoginOptions,
  hooks: BrowserLoginHooks,
): Promise<TokenAnswer> {
  const client = await import('openid-client');
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = options.scopes.split(' ').includes('openid') ? client.randomNonce() : undefined;
  const listener = await startLoopback(options.port, state);
  const stop = new AbortController();
  try {
    const url = client.buildAuthorizationUrl(server, {
      redirect_uri: listener.redirectUri,
      scope: options.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...(nonce ? { nonce } : {}),
    });
    listener.setAuthorizationUrl(url.href);
    if (options.openBrowser) {
      try {
        await hooks.browser.open(listener.startUrl);
        hooks.say('Opened the sign-in page in your browser. If it did not open, visit:');
      } catch {
        hooks.say('Could not open a browser. Open this address to sign in:');
      }
    } else {
      hooks.say('Open this address in a browser to sign in:');
    }
    hooks.say(`  ${url.href}`);
    const stopWaiting = (await hooks.waiting?.()) ?? (() => undefined);
    stop.signal.addEventListener('abort', stopWaiting, { once: true });

    const pasted = hooks.pastedUrl
      ? hooks
          .pastedUrl(listener.redirectUri, stop.signal)
          .then((text) =>
            text
              ? checkCallback(new URL(text.trim()), listener.redirectUri, state)
              : new Promise<URL>(() => {}),
          )
      : new Promise<URL>(() => {});
    const callbackUrl = await Promise.race([
      listener.callback,
      pasted.catch((error) => {
        throw error instanceof TypeError ? new AuthError('that is not a URL') : error;
      }),
      timeout(options.timeoutSeconds, options.loginCommand ?? 'clinic login', stop.signal),
      aborted(hooks.signal),
    ]);
    stop.abort();
    try {
      const tokens = await client.authorizationCodeGrant(server, callbackUrl, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: nonce !== undefined,
      });
      await listener.finish({ ok: true, message: 'clinic received the sign-in.' });
      return tokens;
    } catch (error) {
      const message = describeGrantError(error);
      await listener.finish({ ok: false, message });
      const refusal = refusalWithin(error); // a token endpoint on another user's port: exit 2, nothing sent
      throw refusal instanceof UsageError ? refusal : new AuthError(message);
    }
  } finally {
    stop.abort();
    await listener.close();
  }
}

function timeout(seconds: number, login: string, signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new AuthError(`no sign-in within ${seconds}s; run '${login}' again (--timeout to wait longer)`),
        ),
      seconds * 1000,
    );
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  });
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const cancel = () => reject(new CancelledError('sign-in cancelled'));
    if (signal.aborted) cancel();
    else signal.addEventListener('abort', cancel, { once: true });
  });
}

/** One line, never the code or a token. */
export function describeGrantError(error: unknown): string {
  const body = error as { error?: string; error_description?: string; code?: string };
  if (typeof body.error === 'string') {
    return `the sign-in server refused the exchange: ${body.error}${body.error_description ? `: ${body.error_description}` : ''}`;
  }
  if (error instanceof AuthError) return error.message;
  return `the sign-in could not be completed: ${(error as Error).message}`;
}
