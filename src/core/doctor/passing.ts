// Failures that may pass: the server's own (5xx), too many requests (429), a request it gave up waiting for (408), a
// connection reset, a deadline, an answer cut off. A check that meets one says so, and never sends the user to their
// config or to sign in again for it: the same run a moment later may well pass.
import { ApiError, ServerFailureError, UnreachableError } from '../errors.js';
import { isRetryableNetworkCode } from '../http/retry-policy.js';
import { CUT_OFF } from '../http/transport/exchange.js';
import type { CheckResult } from './check.js';
import { humanDuration } from './duration.js';

/** A failure that may pass, as a check line tells it. */
export interface Passing {
  /** What happened, in a few words: `HTTP 503: Service Unavailable.`, `connection reset`. */
  what: string;
  /** The answer's status, when there was one. */
  status?: number;
  /** The wait the server asked for (Retry-After), in seconds. */
  retryAfterSeconds?: number;
}

/** 5xx that no moment cures: not implemented, an HTTP version refused, a network sign-in page (a captive portal). */
const LASTING_5XX = new Set([501, 505, 511]);

/** Whether an answer's status is a failure that may pass. */
export const passingStatus = (status: number): boolean =>
  status === 408 || status === 429 || (status >= 500 && status <= 599 && !LASTING_5XX.has(status));

/** The server's words in a check line: one line, no control characters, at most this long. */
const MAX_WORDS = 160;

/** Server text made fit for one line of a report (a body may hold a page of HTML, escapes, line breaks). */
export function plainWords(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ');
  const words = flat.replace(/\s+/g, ' ').trim();
  return words.length > MAX_WORDS ? `${words.slice(0, MAX_WORDS)}…` : words;
}

/**
 * `HTTP 500 SERVER_ERROR: the database is down`; the status once, also when the client's message already starts
 * with it (a body without a message gives `HTTP 500 server error`).
 */
export function describeApiError(error: ApiError): string {
  const head = `HTTP ${error.status}${error.code ? ` ${plainWords(error.code)}` : ''}`;
  const rest = plainWords(error.message.replace(new RegExp(`^HTTP ${error.status}\\b[:\\s]*`), ''));
  return rest ? `${head}: ${rest}` : head;
}

/**
 * `cannot reach http://host: connection reset` → `connection reset`: the reason, without the address again or the
 * refresh's own framing (the check line says what was asked).
 */
const networkWhat = (message: string) =>
  plainWords(
    (message.split('\n')[0] ?? '')
      .replace(/^could not refresh the sign-in: /, '')
      .replace(/^cannot reach \S+?: /, '')
      .replace(/; try again later$/, '')
      .replace(/^timed out \((.*)\)$/, '$1')
      // Said of a lost POST's answer; doctor's one POST (a channel's authorization) changes nothing.
      .replace(/ \(the request may have been processed; check before repeating it\)$/, ''),
  );

/** Longest Retry-After believed: a wait of days is no moment (a garbled header), and is not passed on. */
const MAX_RETRY_AFTER_S = 86_400;

/** A usable Retry-After: whole seconds, at most a day. */
export const usableRetryAfter = (seconds: number | undefined): number | undefined =>
  seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 && seconds <= MAX_RETRY_AFTER_S
    ? Math.ceil(seconds)
    : undefined;

/**
 * The failure that may pass in an error a check met, or undefined when it will not pass by waiting (a 401, a 403, a
 * host that does not resolve, a refused connection, a certificate, an answer that is no account…).
 */
export function passingFailure(error: unknown): Passing | undefined {
  if (error instanceof ApiError) {
    if (!passingStatus(error.status)) return undefined;
    const wait = usableRetryAfter(error.retryAfterSeconds);
    return {
      what: describeApiError(error),
      status: error.status,
      ...(wait === undefined ? {} : { retryAfterSeconds: wait }),
    };
  }
  if (error instanceof ServerFailureError)
    return passingStatus(error.status)
      ? { what: networkWhat(error.message), status: error.status }
      : undefined;
  if (error instanceof UnreachableError) {
    const code = error.networkCode;
    return isRetryableNetworkCode(code) || code === CUT_OFF
      ? { what: networkWhat(error.message) }
      : undefined;
  }
  return undefined;
}

/** Who failed, after the failure: the server's answer, or the way to it (a reset, no answer in time). */
export const whose = (passing: Pick<Passing, 'status'>): string =>
  passing.status === 429
    ? 'too many requests for now, not a problem of your setup'
    : passing.status === undefined
      ? 'the server or the network on the way failed for now, not your setup'
      : "the server's own failure for now, not your setup";

/** The detail of a check that met a failure that may pass: `GET /v1/account failed for a moment: HTTP 503 (…)`. */
export const passingDetail = (subject: string, passing: Passing): string =>
  `${subject} failed for a moment: ${passing.what} (${whose(passing)})`;

/** What to do: nothing to change; run doctor again, after the server's Retry-After when it gave one. */
export function passingFix(passing: Passing): string {
  const wait =
    passing.retryAfterSeconds === undefined
      ? 'run doctor again in a moment'
      : `wait ${humanDuration(passing.retryAfterSeconds * 1000)} (the server's Retry-After), then run doctor again`;
  const shared = passing.status === 429 ? '; every clinic process of this user shares the rate limit' : '';
  return `nothing to change: ${wait}${shared}`;
}

/**
 * The line of a check whose request met a failure that may pass: a failure when the check could not find out what
 * it checks (doctor's exit is 1, as for any failure), a warning when it could; marked `transient` for scripts.
 */
export function passingResult(
  name: string,
  status: 'fail' | 'warn',
  subject: string,
  passing: Passing,
  facts: Record<string, unknown> = {},
): CheckResult {
  return {
    name,
    status,
    detail: passingDetail(subject, passing),
    fix: passingFix(passing),
    transient: true,
    facts: {
      ...facts,
      ...(passing.status === undefined ? {} : { http_status: passing.status }),
      ...(passing.retryAfterSeconds === undefined ? {} : { retry_after_s: passing.retryAfterSeconds }),
    },
  };
}
