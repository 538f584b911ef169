// A headless "browser" for the sandbox's sign-in pages: a cookie jar, redirects, and the login and consent forms.
import * as client from 'openid-client';
import type { RunningSandbox } from '../../src/sandbox/index.js';

/** Any port matches: the provider ignores loopback ports; nothing needs to listen there. */
export const REDIRECT_URI = 'http://127.0.0.1:53682/callback';

export function discover(sandbox: RunningSandbox): Promise<client.Configuration> {
  return client.discovery(new URL(sandbox.info.auth_url), sandbox.info.client_id, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
}

export class Browser {
  private readonly jar = new Map<string, string>();
  /** Every page (HTML) the browser was shown, in order. */
  readonly pages: { url: string; status: number; html: string }[] = [];

  async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie } });
    for (const set of res.headers.getSetCookie()) {
      const pair = set.split(';')[0] ?? '';
      const eq = pair.indexOf('=');
      this.jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  }

  /**
   * Follows redirects from `start`, signing in as `user` and answering consent with `decision`,
   * until the provider sends the browser to the client's redirect URI; returns that URL.
   */
  async signIn(start: URL, user: number, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
    let url = start.href;
    let init: RequestInit = {};
    for (let hop = 0; hop < 20; hop++) {
      if (url.startsWith(REDIRECT_URI)) return new URL(url);
      const res = await this.request(url, init);
      init = {};
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location !== null) {
        url = new URL(location, url).href;
        continue;
      }
      const html = await res.text();
      this.pages.push({ url, status: res.status, html });
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
      if (res.status !== 200 || action === undefined)
        throw new Error(`stuck at ${url}: ${res.status} ${html}`);
      // Hidden fields too: switching users passes through the provider's auto-submitted logout form.
      const hidden = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)];
      const fields = new URLSearchParams();
      for (const [, name = '', value = ''] of hidden) fields.append(name, value);
      if (prompt === 'login') fields.set('user', String(user));
      if (prompt === 'consent') fields.set('decision', decision);
      init = { method: 'POST', body: fields };
      url = new URL(action, url).href;
    }
    throw new Error('too many redirects');
  }
}

export interface LoginResult {
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
  browser: Browser;
}

/** The whole code flow with PKCE S256, state and nonce, as `clinic login` does it. */
export async function login(
  config: client.Configuration,
  options: { user?: number; scope?: string; browser?: Browser } = {},
): Promise<LoginResult> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const scope = options.scope ?? 'openid *';
  // A nonce only with openid: without it there is no ID token to carry the nonce back.
  const nonce = scope.split(' ').includes('openid') ? client.randomNonce() : undefined;
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...(nonce === undefined ? {} : { nonce }),
  });
  const browser = options.browser ?? new Browser();
  const callback = await browser.signIn(url, options.user ?? 1);
  const tokens = await client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  });
  return { tokens, browser };
}
