// Where a profile's realtime connection goes (hosted Pusher or a self-hosted server), how its private channels are
// authorized, and the channel name: shared by `chat tail` and `clinic doctor`.
import { profileCommand, type Settings } from '../config/settings.js';
import { NetworkError, UsageError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { MAX_OAUTH_BYTES } from '../limits.js';
import { apiBase, sameOriginUrl } from '../http/request-url.js';
import { requireSecureRealtime, requireSecureUrl } from '../secure-url.js';
import type { RealtimeSettings } from './connection.js';

export interface RealtimeTarget {
  realtime: RealtimeSettings;
  /** The private-channel authorization URL (realtime.auth_endpoint, default `{base_url}/broadcasting/auth`). */
  authEndpoint: string;
}

export const chatChannel = (tenant: string) => `private-chat-log.${tenant}`;

/** The profile's realtime settings, or a usage error saying what to set. */
export function realtimeTarget(settings: Settings): RealtimeTarget {
  const profile = settings.profile.name;
  const key = settings.get('realtime.key');
  const cluster = settings.get('realtime.cluster');
  const host = settings.get('realtime.host');
  if (!key)
    throw new UsageError(
      `no realtime.key for profile '${profile}': run '${profileCommand(settings.profile, 'config set realtime.key KEY')}'`,
    );
  if (!cluster && !host)
    throw new UsageError(
      `profile '${profile}' names no realtime server: set realtime.cluster (hosted Pusher) or realtime.host`,
    );
  const realtime = {
    key,
    cluster,
    host,
    port: settings.get('realtime.port'),
    tls: settings.get('realtime.tls') !== false,
  };
  // Before anything connects: the WebSocket itself, and the hosted cluster's too, goes to this host.
  requireSecureRealtime(socketHost(realtime), realtime.tls, tlsOrigin(settings));
  const baseUrl = settings.get('base_url');
  const endpoint = settings.get('realtime.auth_endpoint'); // by default under base_url (settings.ts)
  if (!endpoint) throw new UsageError(`no realtime.auth_endpoint or base_url for profile '${profile}'`);
  const authEndpoint = requireSecureUrl(endpoint, 'realtime.auth_endpoint').toString();
  // The token goes with every authorization: to base_url's origin only (the HTTP client refuses it too).
  if (baseUrl)
    sameOriginUrl(
      apiBase(requireSecureUrl(baseUrl, 'base_url').href),
      authEndpoint,
      'realtime.auth_endpoint',
    );
  return { realtime, authEndpoint };
}

/** The host the socket goes to: realtime.host, else hosted Pusher's for the cluster (as pusher-js picks it). */
const socketHost = (realtime: RealtimeSettings) =>
  realtime.host ?? `ws-${realtime.cluster ?? 'mt1'}.pusher.com`;

/** Where realtime.tls=false came from, in words for the refusal. */
function tlsOrigin(settings: Settings): string {
  const { source } = settings.describe('realtime.tls');
  if (source === 'env') return 'CLINIC_REALTIME_TLS=false';
  return `realtime.tls=false (profile ${settings.profile.name})`;
}

/** The WebSocket address pusher-js connects to, for messages (the app key is public). */
export function realtimeAddress({ realtime }: RealtimeTarget): string {
  const scheme = realtime.tls ? 'wss' : 'ws';
  const host = socketHost(realtime);
  const port = realtime.port ?? (realtime.tls ? 443 : 80);
  return `${scheme}://${host}:${port}/app/${realtime.key}`;
}

/**
 * Authorizes one socket on one private channel: POSTs socket_id and channel_name to the authorization endpoint with
 * the profile's token and X-Tenant, and returns the `auth` signature.
 */
export function channelAuthorizer(client: HttpClient, authEndpoint: string, tenant: string) {
  return async (socketId: string, channelName: string): Promise<string> => {
    const response = await client.request({
      method: 'POST',
      path: '/broadcasting/auth',
      url: authEndpoint,
      headers: { 'x-tenant': tenant },
      body: { socket_id: socketId, channel_name: channelName },
      repeatable: true, // a signature for this socket; asking twice changes nothing
      maxBytes: MAX_OAUTH_BYTES, // an `auth` string: a few hundred bytes when honest
    });
    const auth = response.json<{ auth?: unknown }>()?.auth;
    if (typeof auth !== 'string') throw new NetworkError('the channel authorization answer has no auth');
    return auth;
  };
}
