// The OAuth/OpenID server of a profile, through openid-client: discovery when offered, documented paths otherwise.
import type { Configuration } from 'openid-client';
import { NetworkError, UsageError } from '../../errors.js';
import type { HttpTransport } from '../../http/transport.js';
import { boundedFetch, type BoundedFetch } from '../../http/oauth-fetch.js';
import { isLoopbackHost, requireSecureUrl } from '../../secure-url.js';

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
 */
function clientFetch(
  { trace, userAgent }: ServerSettings,
  send: BoundedFetch,
  ClientError: typeof import('openid-client').ClientError,
) {
  return async (url: string, init: RequestInit): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (userAgent) headers.set('user-agent', userAgent);
    try {
      return await send(url, { ...init, headers });
    } catch (error) {
      trace?.(`< ${(error as Error).message}`);
      if (!(error instanceof NetworkError)) throw error;
      throw Object.assign(new ClientError(error.message, { cause: error }), {
        code: 'CLINIC_OAUTH_EXCHANGE',
      });
    }
  };
}

export async function loadAuthorizationServer(settings: ServerSettings): Promise<Configuration> {
  const client = await import('openid-client');
  const url = checkAuthUrl(settings.authUrl);
  const insecure = url.protocol === 'http:';
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const transport = settings.transport ?? new (await import('../../http/transport.js')).NodeTransport();
  const send = boundedFetch({ transport, timeoutMs, signal: settings.signal, trace: settings.trace });
  const fetcher = clientFetch(settings, send, client.ClientError);
  // openid-client's own deadline, a little later than ours so that ours (which names the server) speaks first.
  const timeout = Math.ceil(timeoutMs / 1000) + 1;
  const execute = insecure ? [client.allowInsecureRequests] : [];
  const prepare = (config: Configuration) => {
    // http is allowed for a loopback server only: none of the addresses it names may lead elsewhere in clear text.
    for (const endpoint of insecure ? endpointsOf(config) : []) {
      const target = new URL(endpoint);
      if (target.protocol !== 'https:' && !isLoopbackHost(target.hostname)) {
        throw new UsageError(
          `the sign-in server ${url.origin} names a clear-text address elsewhere (${endpoint}); refused`,
        );
      }
    }
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
    if (ours instanceof NetworkError) throw ours;
    if (!isMissingDiscovery(error)) {
      throw new NetworkError(`cannot reach the sign-in server ${url.origin}: ${(error as Error).message}`);
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

function isMissingDiscovery(error: unknown): boolean {
  const cause = (error as { cause?: { status?: number } } | undefined)?.cause;
  const status = (error as { status?: number }).status ?? cause?.status;
  const code = (error as { code?: string }).code;
  return status === 404 || code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON';
}

/** Every address a server's metadata names (endpoints, jwks_uri). */
function endpointsOf(config: Configuration): string[] {
  return Object.entries(config.serverMetadata())
    .filter(([key, value]) => (key.endsWith('_endpoint') || key === 'jwks_uri') && typeof value === 'string')
    .map(([, value]) => value as string);
}
