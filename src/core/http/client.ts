// The one HTTP client: base URL, auth, X-Tenant, JSON, retries, pacing and redacted tracing, composed once.
import type { HttpTransport } from './transport.js';
import type { Clock } from '../clock.js';
import {
  ApiError,
  CancelledError,
  CliError,
  NetworkError,
  RateLimitedError,
  UnreachableError,
  UsageError,
} from '../errors.js';
import { MAX_JSON_BYTES, MAX_JSON_CONTAINERS, MAX_JSON_DEPTH, MAX_RETRY_AFTER_S } from '../limits.js';
import { redactUrl, registerSecret } from '../redact.js';
import { parseApiError, parseRetryAfter } from './parse-error.js';
import { ACCEPT_IDENTITY } from './answer-encoding.js';
import { ConnectionToAnotherUser } from './loopback-owner.js';
import { sleepWatched, type Wait, type WaitWatcher } from '../watched-sleep.js';
import { isLoopbackHost } from '../secure-url.js';
import { describeNetworkError } from './transport/describe-error.js';
import { exchange, flattenHeaders } from './transport/exchange.js';
import type { MultipartBody } from './transport/multipart.js';
import { apiBase, type ApiBase, buildRequestUrl, type RequestUrl, sameOriginUrl } from './request-url.js';
import { LocalPacer, type Pacer, type SignalSource } from './pacers.js';
import { anySignal, type LinkedSignal } from './any-signal.js';
import { mayStart } from './in-flight.js';
import {
  backoffMs,
  isIdempotent,
  networkErrorCode,
  shouldRetryNetworkError,
  shouldRetryStatus,
} from './retry-policy.js';
import { CutOff, type DownloadSink, markingCutOffs } from './download.js';
import { pairExact } from './exact-numbers.js';

export type Query = Record<string, string | number | boolean | undefined> | URLSearchParams;

export interface ApiRequest {
  method: string;
  /** Relative to base_url, e.g. `/v1/customers`. */
  path: string;
  /** An absolute address instead (e.g. a realtime authorization endpoint); no X-Tenant is added to it. */
  url?: string;
  query?: Query;
  /** A JSON value, sent as application/json. */
  body?: unknown;
  /** A multipart body, its file parts streamed from disk; never retried. */
  form?: MultipartBody;
  headers?: Record<string, string>;
  /** A POST that changes nothing on the server (a channel authorization): retried like a GET. */
  repeatable?: boolean;
  /** Largest answer read for this request, when smaller than the client's (a small document's own cap). */
  maxBytes?: number;
  /** Aborts this request alone, in flight or waiting (the client's own signal still applies). */
  signal?: AbortSignal;
  /**
   * Told once the request is on its way: handed to the system whole, or known not to go at once (a wait for the
   * rate-limit window or before a retry, a failure). A caller may then write while the request travels.
   */
  onSent?: () => void;
  /**
   * Told `true` just before the request is handed to the transport: until then nothing of it has left (a wait for
   * the rate-limit window, a token refresh), so a failure before it means the server never saw the request. Told
   * `false` when an answer says it was not processed (401, 429) and it waits to go again.
   */
  onDispatch?: (dispatched: boolean) => void;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  json<T = unknown>(): T;
}

export interface PreparedRequest {
  method: string;
  /** The whole address, as it is sent (see request-url.ts). */
  url: string;
  /** Its origin and request target, handed to the transport as they are: never resolved again. */
  origin: string;
  target: string;
  /** The path below base_url, e.g. `/v1/customers` (for messages and hints). */
  path: string;
  headers: Record<string, string>;
  body?: string;
  form?: MultipartBody;
  /** Whether a failure may be retried as for a GET (idempotent methods, or a request marked repeatable). */
  repeatable: boolean;
  maxBytes?: number;
}

/** A 2xx answer whose body is left unread, to be streamed (downloads). */
interface StreamedResponse {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Buffer>;
}

/** Where the bearer token comes from; the seam for login, refresh and CLINIC_TOKEN. */
export interface TokenSource {
  accessToken(): Promise<string>;
  /** After a 401: get a new token once if possible. True when a new token is ready. */
  renewAfterRejection(rejectedToken: string): Promise<boolean>;
}

export interface HttpClientOptions {
  baseUrl: string;
  tenant?: string;
  /** The last way out when a tenant is needed and none is set (default: `run 'clinic tenants use ID'`). */
  noTenant?: string;
  userAgent: string;
  tokens?: TokenSource;
  transport: HttpTransport;
  /** The rate-limit budget (default: this process's own; the CLI shares one per profile). */
  pacer?: Pacer;
  clock: Clock;
  maxRetries: number;
  /** Deadline of one whole exchange, body included (--request-timeout); downloads only time out on silence. */
  timeoutMs?: number;
  /** Largest JSON answer read (default MAX_JSON_BYTES). */
  maxBodyBytes?: number;
  /** Aborts waits and requests (Ctrl-C). */
  signal?: AbortSignal;
  /** Debug trace lines (already redacted). */
  trace?: (line: string) => void;
  /**
   * Told of each wait before a request goes (again): for the CLI to show (a line, or a countdown on a terminal). A
   * watcher it returns is told the time left as the wait passes, on this client's clock, and its end.
   */
  onWait?: (wait: Wait) => WaitWatcher | undefined;
  /**
   * What the token is called when it is refused (`CLINIC_TOKEN`; default: the sign-in's token). Before a token (or a
   * request's own Authorization) goes in clear text to a loopback origin, the process listening there must be this
   * user's (Linux; see loopback-owner.ts), else nothing is sent.
   */
  tokenName?: string;
}

/** What cancels a request: the client's signal (Ctrl-C) and the request's own. */
type Signals = readonly (AbortSignal | undefined)[];

const anyAborted = (signals: Signals) => signals.some((signal) => signal?.aborted);

/**
 * A wait that would start after Ctrl-C (a request whose turn came as the run was stopping) is not told: its line or
 * countdown would be drawn after the run's last words.
 */
function stopIfInterrupted(signals: Signals): void {
  if (anyAborted(signals)) throw new CancelledError('interrupted');
}

/** Tenant-independent endpoints: everything else under /v1 needs X-Tenant. */
const TENANT_FREE = new Set(['/v1/account', '/v1/account/']);

export function isTenantScoped(path: string): boolean {
  const query = path.indexOf('?');
  const clean = query === -1 ? path : path.slice(0, query);
  return clean.startsWith('/v1/') && !TENANT_FREE.has(clean);
}

export class HttpClient {
  private readonly pacer: Pacer;
  private readonly base: ApiBase;

  constructor(private readonly options: HttpClientOptions) {
    this.pacer = options.pacer ?? new LocalPacer(options.clock);
    this.base = apiBase(options.baseUrl);
  }

  /** Builds the request without auth; checks the address and the tenant rule, so bad input fails before anything is sent. */
  prepare(request: ApiRequest): PreparedRequest {
    const query = request.query instanceof URLSearchParams ? request.query : toSearchParams(request.query);
    const { href, origin, target, path } =
      request.url === undefined
        ? buildRequestUrl(this.base, request.path, query)
        : absoluteRequestUrl(this.base, request.url, query);

    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent,
      ...ACCEPT_IDENTITY,
      ...lowerKeys(request.headers),
    };
    if (request.url === undefined && isTenantScoped(path) && headers['x-tenant'] === undefined) {
      if (!this.options.tenant) {
        throw new UsageError(
          `${path} needs a tenant: pass --tenant ID, set CLINIC_TENANT, or ${this.options.noTenant ?? "run 'clinic tenants use ID'"}`,
        );
      }
      headers['x-tenant'] = this.options.tenant;
    }
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] ??= 'application/json';
    }
    const method = request.method.toUpperCase();
    const repeatable = request.form === undefined && (request.repeatable ?? isIdempotent(method));
    return {
      method,
      url: href,
      origin,
      target,
      path,
      headers,
      body,
      form: request.form,
      repeatable,
      maxBytes: request.maxBytes,
    };
  }

  /** Sends a request; resolves with a 2xx answer, throws ApiError/NetworkError/AuthError otherwise. */
  async request(request: ApiRequest): Promise<ApiResponse> {
    return (await this.exchange(request)) as ApiResponse;
  }

  /**
   * How many more requests a run (--all, bulk) may start now, with `inFlight` started and `wanted` (--concurrency)
   * at most: the rate-limit budget this client has learnt has the last word (see in-flight.ts).
   */
  mayStart(wanted: number, inFlight: number): number {
    return mayStart(wanted, inFlight, this.pacer.room?.());
  }

  /**
   * Like request, but a 2xx body is streamed into `sink` (error answers are read and thrown). A body cut off midway
   * (a reset, a silence past the timeout) is fetched again as a failure before the answer is, on the same retries
   * (--max-retries in all, not per answer), while the sink can start over; given up, in one line naming `sink.what`.
   */
  async download(request: ApiRequest, sink: DownloadSink): Promise<void> {
    await this.exchange(request, sink);
  }

  private async exchange(request: ApiRequest, sink?: DownloadSink): Promise<ApiResponse | StreamedResponse> {
    const prepared = this.prepare(request);
    // The client's signal (Ctrl-C) and the request's own, each listened to where a wait or a send needs it.
    const signals = [this.options.signal, request.signal];
    try {
      return await this.attempts(prepared, sink, signals, request.onSent, request.onDispatch);
    } catch (error) {
      request.onSent?.();
      throw error;
    }
  }

  private async attempts(
    prepared: PreparedRequest,
    sink: DownloadSink | undefined,
    signals: Signals,
    onSent: (() => void) | undefined,
    onDispatch: ((dispatched: boolean) => void) | undefined,
  ): Promise<ApiResponse | StreamedResponse> {
    const { clock, maxRetries } = this.options;
    let token = this.options.tokens ? await this.options.tokens.accessToken() : undefined;
    let renewed = false;
    // A credential in clear text to a loopback origin goes only to this user's listener: the transport looks at each
    // new connection before writing on it (loopback-owner.ts, requireOwnConnection), and its refusal is said here
    // naming the credential.
    const credential = Boolean(token) || hasAuthorization(prepared.headers);

    for (let attempt = 0; ; attempt++) {
      await this.waitForSlot(signals, onSent);
      const headers = token ? { ...prepared.headers, authorization: `Bearer ${token}` } : prepared.headers;
      let answer: ApiResponse | StreamedResponse;
      try {
        onDispatch?.(true);
        answer = await this.send(prepared, headers, sink !== undefined, signals, onSent);
      } catch (error) {
        if (anyAborted(signals)) throw new CancelledError('interrupted');
        if (error instanceof ConnectionToAnotherUser && credential)
          throw error.naming(this.options.tokenName ?? "the sign-in's token");
        if (attempt < maxRetries && shouldRetryNetworkError(error, prepared.method, prepared.repeatable)) {
          onSent?.();
          await this.wait(backoffMs(attempt), `${describeNetworkError(error)}`, attempt, signals);
          continue;
        }
        throw toNetworkError(error, prepared);
      }
      await this.learnFrom(answer.headers, signals);
      if (answer.status >= 200 && answer.status < 300) {
        if (!sink || !('body' in answer)) return answer;
        const cut = await this.deliver(answer, sink, signals);
        if (!cut) return answer;
        const reason = `${describeNetworkError(cut.reason)} while downloading ${sink.what}`;
        if (
          attempt < maxRetries &&
          sink.canStartOver() &&
          shouldRetryNetworkError(cut.reason, prepared.method, prepared.repeatable)
        ) {
          await this.wait(backoffMs(attempt), reason, attempt, signals);
          continue;
        }
        throw new UnreachableError(`cannot reach ${prepared.origin}: ${reason}; ${sink.leftOver()}`);
      }
      if (!('text' in answer)) throw new Error('unreachable: error answers are always read');

      const retryAfter = parseRetryAfter(answer.headers['retry-after'], clock.now());
      const waitTooLong = retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_S;
      // Not processed: until it is sent again, nothing of it is on the server.
      if (answer.status === 401 || answer.status === 429) onDispatch?.(false);
      if (answer.status === 401 && token && !renewed && this.options.tokens) {
        renewed = true;
        if (await this.options.tokens.renewAfterRejection(token)) {
          token = await this.options.tokens.accessToken();
          attempt--; // a renewed token is not a retry
          continue;
        }
      }
      if (
        attempt < maxRetries &&
        shouldRetryStatus(answer.status, prepared.method, prepared.repeatable) &&
        !waitTooLong
      ) {
        const waitMs = retryAfter !== undefined ? retryAfter * 1000 : backoffMs(attempt);
        onSent?.();
        await this.wait(waitMs, `HTTP ${answer.status}`, attempt, signals);
        continue;
      }
      const { path } = prepared;
      if (answer.status >= 300 && answer.status < 400) {
        // Never followed: the token must not travel to wherever the server points.
        const where = answer.headers.location ? ` to ${redactUrl(answer.headers.location)}` : '';
        throw new NetworkError(
          `the server answered with a redirect (HTTP ${answer.status})${where}, which is not followed; check base_url`,
        );
      }
      throw parseApiError(answer.status, answer.text, retryAfter, { method: prepared.method, path });
    }
  }

  /** Streams a body into its sink: undefined once it is all taken, the CutOff when the body failed midway. */
  private async deliver(
    answer: StreamedResponse,
    sink: DownloadSink,
    signals: Signals,
  ): Promise<CutOff | undefined> {
    try {
      await sink.take(markingCutOffs(answer.body), answer.headers);
      return undefined;
    } catch (error) {
      if (anyAborted(signals)) throw new CancelledError('interrupted');
      if (error instanceof CutOff) return error;
      throw error;
    }
  }

  /** Waits until the rate-limit budget (this process's, or the profile's shared one) has room for a request. */
  private async waitForSlot(signals: Signals, onSent?: () => void): Promise<void> {
    for (let told = false; ;) {
      // The shared budget's file may be locked by another process: Ctrl-C ends that wait too.
      const pause = await this.interruptible(signals, (signal) => this.pacer.slot(signal));
      if (pause <= 0) return;
      onSent?.(); // not going at once: whoever waits for it to leave need not
      stopIfInterrupted(signals);
      // The budget believes no window longer than this (rate-budget.ts); a pacer that asks for more is not obeyed.
      if (pause > MAX_RETRY_AFTER_S * 1000) {
        const at = new Date(this.options.clock.now() + pause).toISOString();
        throw new RateLimitedError(
          `the rate-limit window resets in ${Math.ceil(pause / 1000)}s, at ${at}; not waiting that long`,
        );
      }
      // A pause under a second (the budget looking again soon) is no wait a person notices: not told.
      const watcher =
        pause >= 1000 ? this.options.onWait?.({ kind: 'window', ms: pause, again: told }) : undefined;
      told ||= pause >= 1000;
      await this.sleep(pause, signals, watcher);
    }
  }

  private async wait(ms: number, reason: string, attempt: number, signals: Signals): Promise<void> {
    const { maxRetries, onWait } = this.options;
    stopIfInterrupted(signals);
    const watcher = onWait?.({ kind: 'retry', ms, reason, retry: attempt + 1, of: maxRetries });
    await this.sleep(ms, signals, watcher);
  }

  /**
   * What an answer's headers teach the budget. The answer is in hand whatever happens: Ctrl-C during a wait for the
   * budget file's lock leaves the budget untaught, never the answer dropped (a bulk run records each one it got).
   */
  private async learnFrom(headers: ApiResponse['headers'], signals: Signals): Promise<void> {
    await this.interruptible(signals, (signal) => this.pacer.observe(headers, signal)).catch(
      (error: unknown) => {
        if (!anyAborted(signals)) throw error;
      },
    );
  }

  /**
   * `work` with one signal for the request's (Ctrl-C, its own), linked only if `work` asks for it: one that ends it
   * by an abort is an interruption.
   */
  private async interruptible<T>(signals: Signals, work: (signal: SignalSource) => Promise<T>): Promise<T> {
    let linked: LinkedSignal | undefined;
    let over = false;
    try {
      // Asked for once `work` is over, it would be linked for good: none then.
      return await work(() => (over ? undefined : (linked ??= anySignal(signals)).signal));
    } catch (error) {
      throw anyAborted(signals) ? new CancelledError('interrupted') : error;
    } finally {
      over = true;
      linked?.release();
    }
  }

  /** Sleeps on the client's clock, a watcher told the time left as it passes (sleepWatched). */
  private sleep(ms: number, signals: Signals, watcher?: WaitWatcher): Promise<void> {
    return this.interruptible(signals, (signal) => sleepWatched(this.options.clock, ms, signal(), watcher));
  }

  private async send(
    prepared: PreparedRequest,
    headers: Record<string, string>,
    stream: boolean,
    signals: Signals,
    onSent: (() => void) | undefined,
  ): Promise<ApiResponse | StreamedResponse> {
    const { trace, clock, transport, timeoutMs = 60_000 } = this.options;
    const token = headers.authorization === undefined ? undefined : bearerToken(headers.authorization);
    registerSecret(token); // whatever supplied it (a sign-in, CLINIC_TOKEN, login's check): never echoed on stderr
    const answer = await exchange(
      transport,
      {
        origin: prepared.origin,
        path: prepared.target,
        method: prepared.method,
        headers,
        body: prepared.form ?? prepared.body,
      },
      {
        deadlineMs: timeoutMs,
        idleMs: timeoutMs,
        maxBytes: Math.min(prepared.maxBytes ?? Infinity, this.options.maxBodyBytes ?? MAX_JSON_BYTES),
        stream,
        signals,
        trace,
        secrets: token ? [token] : [],
        now: () => clock.now(),
        onSent,
      },
    );
    const responseHeaders = flattenHeaders(answer.headers);
    const { status, text } = answer;
    if (text === undefined) return { status, headers: responseHeaders, body: answer.body };
    return {
      status,
      headers: responseHeaders,
      text,
      json<T>() {
        if (moreContainersThan(text, MAX_JSON_CONTAINERS))
          throw new NetworkError(
            `unexpected response from ${redactUrl(prepared.url)}: the answer holds more than ${MAX_JSON_CONTAINERS.toLocaleString('en')} objects and arrays`,
          );
        let value: T;
        try {
          value = JSON.parse(text) as T;
        } catch {
          throw new NetworkError(`unexpected response from ${redactUrl(prepared.url)}: the body is not JSON`);
        }
        roundedSeen = false;
        if (nestedDeeperThan(value, MAX_JSON_DEPTH))
          throw new NetworkError(
            `unexpected response from ${redactUrl(prepared.url)}: the answer is nested more than ${MAX_JSON_DEPTH} levels deep`,
          );
        // An integer JSON.parse rounded (an id past 2^53): what is shown takes it exact from the text.
        if (roundedSeen) pairExact(value, text);
        return value;
      },
    };
  }
}

/**
 * Whether JSON text may hold more than `limit` objects and arrays (its `{` and `[`, those in strings too: an honest
 * answer is far below). Text too short to hold that many is not read: a page of an export costs nothing.
 */
export function moreContainersThan(text: string, limit: number): boolean {
  if (text.length <= limit * 2) return false;
  let containers = 0;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if ((unit === 0x7b || unit === 0x5b) && ++containers > limit) return true;
  }
  return false;
}

/** Set by nestedDeeperThan when it meets an integer JSON.parse rounded (exact-numbers.ts). */
let roundedSeen = false;

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `limit` (the renderers recurse). Recursion stops
 * at the limit, so a value nested a million deep costs `limit` frames; nothing is allocated on the way (an export
 * checks every page: Object.values of each record was a tenth of all it allocated). On the same walk, notes an
 * integer JSON.parse rounded (roundedSeen).
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) {
    // Past 2^53 every double is an integer, most of them rounded (or Infinity); JSON has no NaN.
    if (typeof value === 'number' && (value > Number.MAX_SAFE_INTEGER || value < -Number.MAX_SAFE_INTEGER))
      roundedSeen = true;
    return false;
  }
  if (limit <= 0) return true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++)
      if (nestedDeeperThan(value[index], limit - 1)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) if (nestedDeeperThan(record[key], limit - 1)) return true;
  return false;
}

/** The token of an Authorization value `Bearer <token>` (any case, any blanks between); other values as they are. */
export function bearerToken(value: string): string {
  if (value.slice(0, 6).toLowerCase() !== 'bearer') return value;
  const token = value.slice(6).trimStart();
  return token.length < value.length - 6 ? token : value;
}

/** An absolute address (realtime.auth_endpoint): base_url's origin only, used as it is plus the query. */
function absoluteRequestUrl(base: ApiBase, address: string, query: URLSearchParams): RequestUrl {
  const url = sameOriginUrl(base, address);
  for (const [key, value] of query) url.searchParams.append(key, value);
  const below = url.pathname.startsWith(`${base.prefix}/`);
  const path = below ? url.pathname.slice(base.prefix.length) : url.pathname;
  return { href: url.href, origin: url.origin, target: url.pathname + url.search, path };
}

function toSearchParams(
  query: Record<string, string | number | boolean | undefined> | undefined,
): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined) params.append(key, String(value));
  return params;
}

function lowerKeys(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (headers === undefined) return undefined; // most requests: nothing to copy
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

const hasAuthorization = (headers: Record<string, string>) =>
  Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');

function toNetworkError(error: unknown, prepared: PreparedRequest): Error {
  // A usage error (a connection refused as another user's: loopback-owner.ts) is said as it is, exit 2.
  if (error instanceof ApiError || error instanceof NetworkError || error instanceof CliError) return error;
  const target = prepared.origin;
  const unsure = prepared.method === 'POST' || prepared.method === 'PATCH';
  const reason = describeNetworkError(error);
  const lost = unsure && reason !== 'connection refused' && reason !== 'host not found';
  return new UnreachableError(
    `cannot reach ${target}: ${reason}${lost ? ' (the request may have been processed; check before repeating it)' : ''}`,
    reason === 'connection refused' ? refusedHint(target) : undefined,
    networkErrorCode(error),
  );
}

/** Nothing listens there: on this machine, most often a sandbox that was stopped (a new one has a new port). */
function refusedHint(origin: string): string {
  const { hostname } = new URL(origin);
  return isLoopbackHost(hostname)
    ? 'nothing listens there: if it was a sandbox, it has stopped; clinic sandbox start runs a new one (on a new port: sign in to it again)'
    : 'nothing listens there: check base_url (clinic config get base_url); clinic doctor checks the way to the API';
}
