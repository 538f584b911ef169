// A fetch for openid-client over the project's own transport and exchange: the answer read whole, but capped,
// uncompressed, within a deadline, traced like the API's, and never redirected.
import type { HttpTransport } from './transport.js';
import { CliError, NetworkError, UnreachableError } from '../errors.js';
import { MAX_OAUTH_BYTES } from '../limits.js';
import { redactUrl } from '../redact.js';
import { ACCEPT_IDENTITY } from './answer-encoding.js';
import { networkErrorCode } from './retry-policy.js';
import { describeNetworkError } from './transport/describe-error.js';
import { exchange } from './transport/exchange.js';

export interface BoundedFetchOptions {
  transport: HttpTransport;
  /** Largest answer read (default MAX_OAUTH_BYTES). */
  maxBytes?: number;
  /** Deadline of one whole exchange, body included, in ms (default 30 s). */
  timeoutMs?: number;
  /** Aborts the request (Ctrl-C). */
  signal?: AbortSignal;
  /** Debug trace lines (redacted by the exchange). */
  trace?: (line: string) => void;
}

export type BoundedFetch = (url: string, init?: RequestInit) => Promise<Response>;

/** Statuses whose Response may carry no body. */
const NO_BODY = new Set([204, 205, 304]);

/**
 * What openid-client asks of a fetch: it sends `redirect: 'manual'` and treats a 3xx as an unexpected answer, so a
 * redirect is handed back as it came (never followed, whatever `init.redirect` says). Every failure is a
 * NetworkError naming the server.
 */
export function boundedFetch(options: BoundedFetchOptions): BoundedFetch {
  const { transport, maxBytes = MAX_OAUTH_BYTES, timeoutMs = 30_000, trace } = options;
  return async (href, init = {}) => {
    const url = new URL(href);
    const headers: Record<string, string> = {};
    for (const [name, value] of new Headers(init.headers)) headers[name] = value;
    Object.assign(headers, ACCEPT_IDENTITY);
    const signals = [options.signal, init.signal ?? undefined].filter(
      (s): s is AbortSignal => s !== undefined,
    );
    const signal = signals.length ? AbortSignal.any(signals) : undefined;
    try {
      const answer = await exchange(
        transport,
        {
          origin: url.origin,
          path: url.pathname + url.search,
          method: (init.method ?? 'GET').toUpperCase(),
          headers,
          body: bodyText(init.body),
        },
        { deadlineMs: timeoutMs, idleMs: timeoutMs, maxBytes, signals: [signal], trace },
      );
      return toResponse(answer.status, answer.headers, Buffer.from(answer.text ?? '', 'utf8'), href);
    } catch (error) {
      if (options.signal?.aborted) throw new NetworkError(`${redactUrl(href)}: interrupted`);
      if (networkErrorCode(error) === 'CLINIC_DEADLINE' || signal?.aborted) {
        const why = `no complete answer within ${Math.round(timeoutMs / 100) / 10}s`;
        throw new UnreachableError(`${redactUrl(href)}: ${why}`, undefined, 'CLINIC_DEADLINE');
      }
      // Ours, said as it is: a network error, or a refusal (a connection to another user's process, exit 2).
      if (error instanceof CliError) throw error;
      throw new UnreachableError(
        `cannot reach ${url.origin}: ${describeNetworkError(error)}`,
        undefined,
        networkErrorCode(error),
      );
    }
  };
}

/** openid-client sends forms as URLSearchParams and nothing as a stream; anything else is a mistake here. */
function bodyText(body: RequestInit['body']): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  throw new TypeError('boundedFetch sends a string or URLSearchParams body only');
}

function toResponse(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
  href: string,
): Response {
  // A status a Response cannot carry (outside 200-599) is no OAuth answer either.
  if (status < 200 || status > 599)
    throw new NetworkError(`${redactUrl(href)} answered with HTTP status ${status}, which is not valid`);
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      out.append(name, one);
  }
  return new Response(NO_BODY.has(status) ? null : body, { status, headers: out });
}
