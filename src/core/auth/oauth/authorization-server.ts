// The OAuth/OpenID server of a profile, through openid-client: discovery when offered, documented paths otherwise.
import type { Configuration } from 'openid-client';
import { NetworkError, ServerFailureError, UsageError } from '../../errors.js';
import type { HttpTransport } from '../../http/transport.js';
import { boundedFetch, type BoundedFetch } from '../../http/oauth-fetch.js';
import { requireOwnListener } from '../../http/loopback-owner.js';
import { isLoopbackHost, requireSecureUrl } from '../../secure-url.js';
import { originOf } from '../binding.js';
import { readExpiresIn } from './token-response.js';

export interface ServerSettings {
  authUrl: string;
  clientId: string;
  /** Debug trace lines (the exchange redacts them). */
  trace?: (line: string) => void;
  userAgent?: string;
  /** Deadline of each exchange with the server, body included, in ms (default 30 s). */
  timeoutMs?: number;
  /** Aborts requests (Ctrl-C). */
  signal?: AbortSignal;
  /** The HTTP transport (default: a NodeTransport of its own). */
  transport?: HttpTransport;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** http is allowed only for a server on this machine (the sandbox); anything else must be https. */
export function checkAuthUrl(authUrl: string): URL {
  return requireSecureUrl(authUrl, 'auth_url');
}

/**
 * openid-client's requests, with our User-Agent, through the bounded fetch (capped, uncompressed, within a deadline,
 * never redirected, traced under --debug like API requests). Its failures reach the caller as openid-client's
 * ClientError with our message, which openid-client passes on as it is (anything else it would wrap as "something
 * went wrong").
 *
 * A second guard behind requireEndpointsAt: nothing but a plain GET (discovery, JWKS) ever leaves for another origin
 * than auth_url's, whatever address openid-client was given.
 */
function clientFetch(
  { trace, userAgent }: ServerSettings,
  origin: string,
  send: BoundedFetch,
  ClientError: typeof import('openid-client').ClientError,
) {
  const fail = (message: string, cause?: unknown) =>
    Object.assign(new ClientError(message, { cause }), { code: 'CLINIC_OAUTH_EXCHANGE' });
  return async (url: string, init: RequestInit): Promise<Response> => {
    const headers = new Headers(init.headers);
    const method = (init.method ?? 'GET').toUpperCase();
    const target = originOf(url);
    if (
      target !== origin &&
      (method !== 'GET' || headers.has('authorization') || (init.body ?? undefined) !== undefined)
    ) {
      throw fail(`refused to send a sign-in request to ${target ?? 'an invalid address'}: not ${origin}`);
    }
    if (userAgent) headers.set('user-agent', userAgent);
    // A code, a verifier or a token in clear text to this machine: only to a listener of this user (as API tokens).
    if (origin.startsWith('http:') && (method !== 'GET' || headers.has('authorization'))) {
      await requireOwnListener(origin, 'the sign-in', 'auth_url').catch((error: unknown) => {
        throw fail((error as Error).message, error);
      });
    }
    try {
      const response = await send(url, { ...init, headers });
      return method === 'POST' ? await withUsableExpiry(response, trace) : response;
    } catch (error) {
      trace?.(`< ${(error as Error).message}`);
      if (!(error instanceof NetworkError || error instanceof UsageError)) throw error;
      throw fail(error.message, error);
    }
  };
}

/**
 * A token answer whose `expires_in` openid-client would reject (negative, not a number) loses that member only, so
 * the tokens in it are kept as if it gave no lifetime: the grant (a refresh token, under rotation) is already spent.
 */
async function withUsableExpiry(response: Response, trace?: (line: string) => void): Promise<Response> {
  if (!/\bjson\b/i.test(response.headers.get('content-type') ?? '')) return response;
  let body: unknown;
  try {
    body = JSON.parse(await response.clone().text());
  } catch {
    return response; // openid-client says what is wrong with it
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('expires_in' in body))
    return response;
  const { expires_in: lifetime, ...rest } = body as Record<string, unknown>;
  if (readExpiresIn(lifetime) !== undefined) return response;
  trace?.('< expires_in is no usable number of seconds: the tokens are kept without an expiry');
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(rest), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/** A refusal of ours (a UsageError) inside openid-client's error, else the error itself. */
export const refusalWithin = (error: unknown): unknown => {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return cause instanceof UsageError ? cause : error;
};

export async function loadAuthorizationServer(settings: ServerSettings): Promise<Configuration> {
  const client = await import('openid-client');
  const url = checkAuthUrl(settings.authUrl);
  const insecure = url.protocol === 'http:';
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const transport = settings.transport ?? new (await import('../../http/transport.js')).NodeTransport();
  const send = boundedFetch({ transport, timeoutMs, signal: settings.signal, trace: settings.trace });
  const fetcher = clientFetch(settings, url.origin, send, client.ClientError);
  // openid-client's own deadline, a little later than ours so that ours (which names the server) speaks first.
  const timeout = Math.ceil(timeoutMs / 1000) + 1;
  const execute = insecure ? [client.allowInsecureRequests] : [];
  const prepare = (config: Configuration) => {
    // http is allowed for a loopback server only: none of the addresses it names may lead elsewhere in clear text.
    for (const endpoint of insecure ? endpointsOf(config) : []) {
      const target = new URL(endpoint);
      if (target.protocol !== 'https:' && !isLoopbackHost(target.hostname)) {
        throw new NetworkError(
          `the sign-in server ${url.origin} names a clear-text address elsewhere (${endpoint}); refused`,
        );
      }
    }
    requireEndpointsAt(config, url.origin);
    config[client.customFetch] = fetcher as never;
    config.timeout = timeout;
    for (const step of execute) step(config);
    return config;
  };
  let discovered: Configuration | undefined;
  try {
    discovered = await client.discovery(url, settings.clientId, undefined, client.None(), {
      execute,
      [client.customFetch]: fetcher as never,
      timeout,
    });
  } catch (error) {
    const ours = (error as { cause?: unknown }).cause;
    if (ours instanceof NetworkError || ours instanceof UsageError) throw ours;
    if (!isMissingDiscovery(error)) {
      const message = `cannot reach the sign-in server ${url.origin}: ${(error as Error).message}`;
      // Its own failure or too many requests: what may pass (a doctor run says so rather than "sign in again").
      const status = statusOf(error);
      if (status !== undefined && (status >= 500 || status === 429))
        throw new ServerFailureError(message, status);
      throw new NetworkError(message);
    }
  }
  if (discovered) return prepare(discovered);
  // No discovery document: the API document's paths.
  const root = url.href.replace(/\/+$/, '');
  return prepare(
    new client.Configuration(
      {
        issuer: root,
        authorization_endpoint: `${root}/oauth/authorize`,
        token_endpoint: `${root}/oauth/token`,
      },
      settings.clientId,
      undefined,
      client.None(),
    ),
  );
}

/** The HTTP status of the answer behind openid-client's error, when it had one. */
function statusOf(error: unknown): number | undefined {
  const cause = (error as { cause?: { status?: number } } | undefined)?.cause;
  const status = (error as { status?: unknown } | undefined)?.status ?? cause?.status;
  return typeof status === 'number' ? status : undefined;
}

function isMissingDiscovery(error: unknown): boolean {
  const status = statusOf(error);
  const code = (error as { code?: string }).code;
  return status === 404 || code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON';
}

/**
 * Addresses that receive nothing secret: the authorization endpoint is only opened in the browser, with the state,
 * the PKCE challenge and the nonce (the code it yields is worthless without the verifier, which goes to the token
 * endpoint only); jwks_uri is only read.
 */
const NO_SECRET = new Set(['authorization_endpoint', 'jwks_uri']);

/**
 * Codes, PKCE verifiers, refresh and access tokens, ID token hints go only to auth_url's origin (scheme, host, port):
 * every other address the metadata names (token, revocation, userinfo, introspection, end-session, ... and their mTLS
 * aliases) must be there, or its answer is refused (exit 1, as any answer the CLI cannot use: the discovery request
 * has been sent, so this is no usage error) before anything is sent to them.
 */
export function requireEndpointsAt(config: Configuration, origin: string): void {
  const metadata = config.serverMetadata() as Record<string, unknown>;
  const aliases = metadata.mtls_endpoint_aliases;
  const named = [
    ...Object.entries(metadata),
    ...(typeof aliases === 'object' && aliases !== null
      ? Object.entries(aliases).map(([key, value]) => [`mtls_endpoint_aliases.${key}`, value] as const)
      : []),
  ];
  for (const [key, value] of named) {
    if (!key.endsWith('_endpoint') || NO_SECRET.has(key) || typeof value !== 'string') continue;
    const target = originOf(value);
    if (target === origin) continue;
    throw new NetworkError(
      `the sign-in server ${origin} names its ${key} at another origin (${target ?? value}); refused: ` +
        `codes and tokens are sent only to ${origin}`,
    );
  }
}

/** Every address a server's metadata names (endpoints, jwks_uri). */
function endpointsOf(config: Configuration): string[] {
  return Object.entries(config.serverMetadata())
    .filter(([key, value]) => (key.endsWith('_endpoint') || key === 'jwks_uri') && typeof value === 'string')
    .map(([, value]) => value as string);
}
