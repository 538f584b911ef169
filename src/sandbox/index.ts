// Public entry of the local sandbox: starts a seeded, in-memory imitation of the Clinic API (REST, OpenID provider,
// Pusher-protocol realtime) on one port of 127.0.0.1.
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { API_PREFIX, createApiHandler } from './api/api-handler.js';
import { broadcastingAuthRoute } from './api/broadcasting-auth.js';
import { API_ROUTES } from './api/routes.js';
import { type IssueTokenOptions, TokenStore } from './auth/tokens.js';
import type { ChatEventListener } from './data/chat-logs.js';
import { type NewMessage, postMessage } from './data/chat-messages.js';
import type { ChatLogRecord } from './data/chat-types.js';
import type { SandboxFixtures } from './data/fixtures.js';
import { buildSeedStore, DEFAULT_ERASURE_STEP_SECONDS } from './data/seed.js';
import { createDispatcher, createUpgradeDispatcher, type Mount, type RequestLogEntry } from './dispatcher.js';
import { IDENTITY_PATH, identityHandler, SANDBOX_SERVICE } from './identity.js';
import { mountOAuthServer } from './oauth/oauth-mount.js';
import type { OAuthCounters } from './oauth/oauth-server.js';
import { OAUTH_ROUTES } from './oauth/routes.js';
import { DEFAULT_TTL } from './oauth/scopes.js';
import { ChannelAuthority } from './realtime/channel-auth.js';
import type { RealtimeClient } from './realtime/pusher-server.js';
import { SandboxRealtime } from './realtime/realtime.js';
import { listen } from './server.js';
import { FaultInjector, parseFaultSpec } from './traffic/faults.js';
import { limitedPerIp } from './traffic/ip-limit.js';
import { RateLimiter } from './traffic/rate-limit.js';
import { type SandboxClock, systemClock } from './clock.js';
import type { RateWindow } from './traffic/rate-limit.js';

export type { IssueTokenOptions } from './auth/tokens.js';
export type { ChatEvent, ChatEventListener } from './data/chat-logs.js';
export type { NewMessage } from './data/chat-messages.js';
export type { ChatLogRecord, SenderType } from './data/chat-types.js';
export type { RealtimeClient } from './realtime/pusher-server.js';
export { CHAT_EVENT_NAMES } from './realtime/chat-broadcasts.js';
export type { SandboxFixtures, TenantFixtures, LeadFixtures } from './data/fixtures.js';
export type { FaultKind, FaultSpec } from './traffic/faults.js';
export type { RateWindow } from './traffic/rate-limit.js';
export type { SandboxClock } from './clock.js';
export { parseFaultSpec } from './traffic/faults.js';
export { IDENTITY_PATH, SANDBOX_SERVICE } from './identity.js';
export type { OAuthCounters } from './oauth/oauth-server.js';
export { API_SCOPES, OIDC_SCOPES, SANDBOX_SCOPES } from './oauth/scopes.js';

export interface SandboxOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 1. */
  seed?: number;
  /** Customers per tenant, default 40. */
  records?: number;
  /** Requests per minute per user, default 60, 0 = off. */
  rateLimit?: number;
  /** Length of the rate-limit window in seconds, default 60 (tests shorten it). */
  rateWindowSeconds?: number;
  /** E.g. '5xx=0.05,429=0.05,reset=0.02,slow=0.05,ws-drop=0.1'; default none. */
  faults?: string;
  /**
   * Milliseconds (whole, up to MAX_LATENCY_MS) every API answer waits before it is worked out, as a network's round
   * trip would; default 0. OAuth and realtime are not delayed.
   */
  latencyMs?: number;
  /**
   * Generated patient messages per second (fractions allowed, e.g. 0.5), spread over the seeded conversations of
   * tenants 1 and 2, with now and then a conversation read or one of those messages deleted; default 0 = none.
   */
  chatter?: number;
  /** Lifetime of OAuth access tokens in seconds, default 15 days (tests use a second or two). */
  accessTokenTtl?: number;
  /** Lifetime of OAuth refresh tokens in seconds, default 30 days. */
  refreshTokenTtl?: number;
  /**
   * Seconds between two steps of a live data-erasure request (created through the API, or one of the three
   * seeded live ones per tenant), default 30; 0 = frozen, nothing moves. The per-status fixtures never move.
   * Fractions are allowed (tests use 0.2); the CLI flag takes whole seconds.
   */
  erasureStepSeconds?: number;
  /**
   * The sandbox's time (token expiry, erasure movement, rate windows, timestamps), default the wall clock. Tests pass
   * a clock they move forward instead of sleeping. Realtime timers (chatter, replies, outages) still run in real time,
   * and the OpenID provider stamps tokens with the wall clock: a clock moved forward makes them expire sooner.
   */
  clock?: SandboxClock;
}

export interface SandboxInfo {
  base_url: string;
  auth_url: string;
  client_id: string;
  realtime: { key: string; host: string; port: number; tls: boolean; auth_endpoint: string };
  tenants: { id: number; name: string; slug: string }[];
  /** Personal access token of the seeded admin user, scopes ['*']. */
  token: string;
}

export interface RunningSandbox {
  info: SandboxInfo;
  port: number;
  /** This start's own id, served at /.well-known/clinic-sandbox (identity.ts). */
  instance: string;
  /** A new personal access token (other users, roles, scopes, or already expired). */
  issueToken(opts: IssueTokenOptions): string;
  /** Every request received, in order. */
  requests: {
    method: string;
    path: string;
    query: string;
    headers: Record<string, string | string[] | undefined>;
  }[];
  setFaults(spec: string | undefined): void;
  /** Also restarts every caller's window. */
  setRateLimit(perMinute: number): void;
  /** Every rate-limit window opened so far (capped at 10,000), as the limiter counted it. */
  rateWindows(): readonly RateWindow[];
  /** What the OpenID provider has done so far (live counts). */
  oauth: OAuthCounters;
  /** Ids of the seeded records tests can count on (see docs/sandbox.md). */
  fixtures: SandboxFixtures;
  /** Hears every chat log created or deleted and every conversation read; returns the unsubscribe. */
  onChatEvent(listener: ChatEventListener): () => void;
  /** A new message (default: from the conversation's patient, status received), broadcast as ChatLogCreated. */
  postMessage(message: NewMessage): ChatLogRecord;
  /** Soft-deletes a message (ChatLogDeleted); false when there is no such live message in that conversation. */
  deleteMessage(conversationId: number, messageId: number, deletedByUserName?: string | null): boolean;
  /** Marks the patient's messages read (ConversationRead). */
  markRead(tenantId: number, conversationId: number): void;
  /** Generated patient messages per second from now on; 0 stops them. */
  setChatter(perSecond: number): void;
  /** Cuts every realtime connection at once (a network blip); returns how many there were. */
  dropRealtime(): number;
  /** An outage: cuts every realtime connection, then cuts each new one as soon as it opens, for `ms`. */
  blockRealtime(ms: number): void;
  /** The open realtime connections and their channels. */
  realtimeClients(): RealtimeClient[];
  close(): Promise<void>;
}

export const SANDBOX_CLIENT_ID = 'clinic-cli';
export const SANDBOX_REALTIME_KEY = 'sandbox-key';
const ADMIN_USER_ID = 1;

/** The longest --latency: a minute (a timer's limit is some 24 days; a longer wait is no round trip). */
const MAX_LATENCY_MS = 60_000;

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const port = wholeNumber('port', options.port ?? 0);
  const seed = wholeNumber('seed', options.seed ?? 1);
  const records = wholeNumber('records', options.records ?? 40);
  const rateLimit = wholeNumber('rateLimit', options.rateLimit ?? 60);
  const faultSpec = options.faults === undefined ? undefined : parseFaultSpec(options.faults);
  const chatter = nonNegative('chatter', options.chatter ?? 0);
  const latencyMs = wholeNumber('latencyMs', options.latencyMs ?? 0);
  if (latencyMs > MAX_LATENCY_MS)
    throw new Error(`Sandbox option latencyMs must be at most ${MAX_LATENCY_MS}, got ${latencyMs}.`);
  const accessTokenTtl = positive('accessTokenTtl', options.accessTokenTtl ?? DEFAULT_TTL.accessToken);
  const refreshTokenTtl = positive('refreshTokenTtl', options.refreshTokenTtl ?? DEFAULT_TTL.refreshToken);
  const erasureStepSeconds = nonNegative(
    'erasureStepSeconds',
    options.erasureStepSeconds ?? DEFAULT_ERASURE_STEP_SECONDS,
  );

  const clock = options.clock ?? systemClock;
  const now = () => clock.now();
  // Erasure movement is worked out lazily from now() on each request; only the realtime side (chatter, assistant
  // replies, ws-drop) runs timers, and close() stops them.
  const store = buildSeedStore({ seed, records, erasureStepSeconds, startMs: now() });
  const tokens = new TokenStore((userId) => store.user(userId) !== undefined, now);
  const limiter = new RateLimiter(
    rateLimit,
    now,
    positive('rateWindowSeconds', options.rateWindowSeconds ?? 60) * 1000,
  );
  const faults = new FaultInjector(seed);
  faults.set(faultSpec);
  const lifetime = new AbortController();
  // Every answer held back (--latency, slow faults) listens to it until it goes on: as many as requests in flight.
  setMaxListeners(0, lifetime.signal);
  const requests: RequestLogEntry[] = [];
  // Mounted once the port is known (issuer, audience and links hold it). This runs in the same tick as listen's
  // callback, so no request can arrive while the list is still empty.
  const mounts: Mount[] = [];
  const listening = await listen(createDispatcher(mounts, requests), host, port);
  const channelAuthority = new ChannelAuthority(SANDBOX_REALTIME_KEY);
  const realtime = new SandboxRealtime({ authority: channelAuthority, store, faults, seed, chatter, now });
  listening.server.on(
    'upgrade',
    createUpgradeDispatcher((...upgrade) => realtime.server.handleUpgrade(...upgrade), requests),
  );
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const origin = `http://${urlHost}:${listening.port}`;
  const baseUrl = `${origin}${API_PREFIX}`;

  const oauth = mountOAuthServer({
    issuer: origin,
    clientId: SANDBOX_CLIENT_ID,
    apiResource: baseUrl,
    accessTokenTtl,
    refreshTokenTtl,
    now,
    store,
    personalTokens: tokens,
  });
  const api = createApiHandler({
    store,
    tokens,
    limiter,
    faults,
    latencyMs,
    origin: () => origin,
    now,
    lifetime: lifetime.signal,
    routes: [...API_ROUTES, broadcastingAuthRoute(channelAuthority)],
    jwtAccess: oauth.jwtAccess,
  });
  const instance = randomUUID();
  mounts.push(
    { prefix: API_PREFIX, handle: api },
    // Before /.well-known, which is the OpenID provider's: this answer must not wait for it to load.
    {
      prefix: IDENTITY_PATH,
      handle: identityHandler({ service: SANDBOX_SERVICE, instance, base_url: baseUrl }),
    },
    // The token exchange carries no token: counted per IP address (mounts are matched in order).
    { prefix: OAUTH_ROUTES.token, handle: limitedPerIp(limiter, oauth.handleProvider) },
    { prefix: '/oauth', handle: oauth.handleProvider },
    { prefix: '/.well-known', handle: oauth.handleProvider },
    { prefix: '/interaction', handle: oauth.handleInteraction },
  );

  const info: SandboxInfo = {
    base_url: baseUrl,
    auth_url: origin,
    client_id: SANDBOX_CLIENT_ID,
    realtime: {
      key: SANDBOX_REALTIME_KEY,
      host,
      port: listening.port,
      tls: false,
      auth_endpoint: `${baseUrl}/broadcasting/auth`,
    },
    tenants: store.tenantsOf(ADMIN_USER_ID).map(({ id, name, slug }) => ({ id, name, slug })),
    token: tokens.issue({ userId: ADMIN_USER_ID, scopes: ['*'] }),
  };

  return {
    info,
    port: listening.port,
    instance,
    issueToken: (opts) => tokens.issue(opts),
    requests,
    setFaults: (spec) => {
      faults.set(spec === undefined ? undefined : parseFaultSpec(spec));
      realtime.syncFaults();
    },
    setRateLimit: (perMinute) => limiter.setLimit(wholeNumber('rateLimit', perMinute)),
    rateWindows: () => limiter.history,
    oauth: oauth.counters,
    fixtures: store.fixtures,
    onChatEvent: (listener) => store.onChatEvent(listener),
    postMessage: (message) => postMessage(store, message, now()),
    deleteMessage: (conversationId, messageId, deletedByUserName = null) =>
      store.chat.remove(conversationId, messageId, deletedByUserName, now()),
    markRead: (tenantId, conversationId) => {
      if (store.conversation(tenantId, conversationId) === undefined) {
        throw new Error(`No conversation ${conversationId} in tenant ${tenantId}.`);
      }
      store.chat.markRead(tenantId, conversationId, now());
    },
    setChatter: (perSecond) => realtime.chatter.setRate(nonNegative('chatter', perSecond)),
    dropRealtime: () => realtime.server.dropAll(),
    blockRealtime: (ms) => realtime.server.block(nonNegative('blockRealtime ms', ms)),
    realtimeClients: () => realtime.server.clients(),
    close: async () => {
      lifetime.abort();
      realtime.close();
      await listening.close();
    },
  };
}

function wholeNumber(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`Sandbox option ${name} must be a whole number >= 0, got ${value}.`);
  }
  return value;
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`Sandbox option ${name} must be a number >= 0, got ${value}.`);
  }
  return value;
}

function positive(name: string, value: number): number {
  if (wholeNumber(name, value) === 0) throw new Error(`Sandbox option ${name} must be at least 1, got 0.`);
  return value;
}
