// `chat tail --forward-to`: one event POSTed at a time through the project's one transport (one deadline for the
// whole try, no answer's body read, never a redirect followed), signed, and tried again until the endpoint takes it:
// 2xx delivers; 408, 429, 5xx, a redirect, a timeout or a refused connection waits (1 s doubling to 30 s, or the
// endpoint's Retry-After up to that) and tries again; another 4xx is the endpoint's refusal of this event, which is
// said and skipped.
import type { Clock } from '../clock.js';
import { CancelledError } from '../errors.js';
import { ACCEPT_IDENTITY } from '../http/answer-encoding.js';
import { parseRetryAfter } from '../http/parse-error.js';
import type { HttpTransport } from '../http/transport.js';
import { describeNetworkError } from '../http/transport/describe-error.js';
import { exchange } from '../http/transport/exchange.js';
import { redactUrl } from '../redact.js';
import { sleepWatched, type Wait, type WaitWatcher } from '../watched-sleep.js';
import { signature } from './forward-signature.js';

/** The longest wait between two tries of one event. */
export const MAX_FORWARD_BACKOFF_MS = 30_000;
/** The wait before try `retry + 1` (retry 0 is the first retry): 1 s, 2 s, 4 s… up to 30 s. */
export function forwardBackoffMs(retry: number): number {
  return Math.min(1000 * 2 ** Math.min(retry, 15), MAX_FORWARD_BACKOFF_MS);
}

export interface ForwarderOptions {
  transport: HttpTransport;
  url: URL;
  secret: string;
  clock: Clock;
  userAgent: string;
  /** Deadline of one POST, answer included, in ms. */
  timeoutMs: number;
  /** --debug trace lines (redacted by the exchange). */
  trace?: (line: string) => void;
  /** A line per event accepted (on a terminal: the CLI decides). */
  accepted?(eventId: string, status: number, ms: number): void;
  /**
   * A try that failed and will be made again after `wait.ms`: told as the CLI tells a wait (a countdown on a
   * terminal, a line elsewhere; --quiet silences it), through the watcher it gives back.
   */
  retrying(wait: ForwardWait): WaitWatcher | undefined;
  /** An event the endpoint refused for good (a 4xx other than 408 and 429): skipped, and said even with --quiet. */
  refused(line: string): void;
}

export type ForwardOutcome = 'accepted' | 'refused';

/** The wait before an event is tried again. */
export type ForwardWait = Extract<Wait, { kind: 'forward' }>;

export class Forwarder {
  private readonly origin: string;
  private readonly path: string;
  private readonly where: string;

  constructor(private readonly options: ForwarderOptions) {
    this.origin = options.url.origin;
    this.path = options.url.pathname + options.url.search;
    this.where = redactUrl(options.url.href);
  }

  /**
   * POSTs `body` until the endpoint takes it or refuses it for good; throws CancelledError once `signal` aborts (the
   * tail is ending): the event was then not delivered, and a POST in flight is abandoned.
   */
  async forward(id: string, body: string, signal: AbortSignal): Promise<ForwardOutcome> {
    const { clock } = this.options;
    for (let retry = 0; ; retry++) {
      if (signal.aborted) throw new CancelledError('interrupted');
      const started = clock.now();
      const answer = await this.post(id, body, signal);
      if (signal.aborted) throw new CancelledError('interrupted');
      if ('status' in answer && answer.status >= 200 && answer.status < 300) {
        this.options.accepted?.(id, answer.status, clock.now() - started);
        return 'accepted';
      }
      if ('status' in answer && !isRetriedStatus(answer.status)) {
        this.options.refused(
          `${this.where} refused ${id} with HTTP ${answer.status}; skipped (a 4xx other than 408 and 429 is not retried)`,
        );
        return 'refused';
      }
      const ms = this.waitMs(retry, 'status' in answer ? answer.retryAfter : undefined);
      const watcher = this.options.retrying({ kind: 'forward', ms, reason: `${id}: ${answer.why}` });
      try {
        await sleepWatched(clock, ms, signal, watcher);
      } catch {
        throw new CancelledError('interrupted');
      }
    }
  }

  private waitMs(retry: number, retryAfterS: number | undefined): number {
    const backoff = forwardBackoffMs(retry);
    if (retryAfterS === undefined) return backoff;
    return Math.min(Math.max(retryAfterS * 1000, 0), MAX_FORWARD_BACKOFF_MS);
  }

  /** One try: the status (and a Retry-After), or why no status came. */
  private async post(
    id: string,
    body: string,
    signal: AbortSignal,
  ): Promise<{ status: number; retryAfter?: number; why: string } | { why: string }> {
    const { clock, secret, timeoutMs } = this.options;
    const unixSeconds = Math.floor(clock.now() / 1000);
    try {
      const answer = await exchange(
        this.options.transport,
        {
          origin: this.origin,
          path: this.path,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': this.options.userAgent,
            ...ACCEPT_IDENTITY,
            'clinic-event-id': id,
            'clinic-signature': signature(secret, unixSeconds, body),
          },
          body,
        },
        // No answer's body is read: only its status counts, and what an endpoint sends after it (a page of any size,
        // at any pace) must neither fill memory nor stall the tail. The connection is let go with it.
        // One deadline for the whole try: an endpoint trickling its head a byte at a time (each within the idle
        // limit) must not hold every later event back for ever.
        {
          deadlineMs: timeoutMs,
          idleMs: timeoutMs,
          maxBytes: 0,
          stream: 'any',
          signals: [signal],
          trace: this.options.trace,
        },
      );
      answer.body.destroy();
      const { status } = answer;
      const header = answer.headers['retry-after'];
      const retryAfter = parseRetryAfter(Array.isArray(header) ? header[0] : header, clock.now());
      const why =
        status >= 300 && status < 400
          ? `the endpoint answered ${status} (a redirect, not followed: fix --forward-to)`
          : `the endpoint answered ${status}`;
      return { status, retryAfter, why };
    } catch (error) {
      return { why: `cannot reach ${this.origin}: ${describeNetworkError(error)}` };
    }
  }
}

/** Statuses that say "not now" rather than "never": 408, 429, every 5xx, and a redirect (not followed). */
function isRetriedStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500 || (status >= 300 && status < 400) || status < 200;
}
