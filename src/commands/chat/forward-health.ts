// `chat tail --forward-to`: why a try reached no endpoint, in one line a person can read (never OpenSSL's text), and
// the failures that will go on failing the same way (a host that does not resolve, https to a plain-http server, a
// certificate refused; a connection refused, or an answer such as 503 tried again, for a minute) said once each,
// even with --quiet: a service's journal learns that its endpoint cannot work, without a line per retry.
import type { Clock } from '../../core/clock.js';
import { networkErrorCode } from '../../core/http/retry-policy.js';
import type { HttpTransport } from '../../core/http/transport.js';
import { firstLine } from '../../core/http/transport/describe-error.js';

/** How long a failure that may pass by itself (the endpoint restarting: refused, reset) lasts before it is said. */
export const LASTING_FAILURE_MS = 60_000;

export interface ForwardFailure {
  /** What failed (`tls`, `certificate`, `dns`, `refused`…): each kind is said once while the endpoint stays down. */
  kind: string;
  /** One line: `TLS handshake failed (is it http?)`. */
  words: string;
  /** Whether it fails the same way until someone changes something (said at once), or may pass (said after a minute). */
  lasting: boolean;
}

// Node's names for a certificate that is not accepted (OpenSSL's verify errors, and a name it was not issued for).
const CERTIFICATE_CODE = /CERT|_CA$|SIGNATURE|^HOSTNAME_MISMATCH$|^PATH_LENGTH_EXCEEDED$|^INVALID_PURPOSE$/;
// What OpenSSL says when the other end does not speak TLS at all (a plain-http server, another protocol).
const NOT_TLS =
  /wrong version number|packet length too long|unknown protocol|http request|record layer failure/;
const TIMED_OUT: ForwardFailure = { kind: 'timeout', words: 'timed out', lasting: false };

/** A failed try (no answer) as one line, and whether it will go on failing. */
export function describeForwardFailure(error: unknown): ForwardFailure {
  const code = networkErrorCode(error) ?? '';
  const message = error instanceof Error ? error.message : String(error);
  // `write EPROTO 80CC…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/…\n`: its reason.
  const tls = /SSL routines:[^:\n]*:([^:\n]+)/.exec(message)?.[1]?.trim();
  if (tls !== undefined) {
    if (NOT_TLS.test(tls)) return { kind: 'tls', words: 'TLS handshake failed (is it http?)', lasting: true };
    const alert = /alert (.+)$/.exec(tls)?.[1];
    if (alert) return { kind: 'tls', words: `TLS handshake refused by the server (${alert})`, lasting: true };
    return { kind: 'tls', words: `TLS failed (${tls})`, lasting: true };
  }
  if (CERTIFICATE_CODE.test(code))
    return { kind: 'certificate', words: `certificate not accepted: ${oneLine(error)}`, lasting: true };
  const hostname = (error as { hostname?: unknown } | null)?.hostname;
  const host = typeof hostname === 'string' && hostname !== '' ? hostname : 'the host';
  switch (code) {
    case 'ENOTFOUND':
      return { kind: 'dns', words: `host not found: ${host}`, lasting: true };
    case 'EAI_AGAIN':
      return { kind: 'dns-answer', words: `no DNS answer for ${host}`, lasting: false };
    case 'ECONNREFUSED':
      return { kind: 'refused', words: 'connection refused', lasting: false };
    case 'ECONNRESET':
      // `Client network socket disconnected before secure TLS connection was established`
      return message.includes('TLS')
        ? {
            kind: 'tls-cut',
            words: 'the server closed the connection during the TLS handshake',
            lasting: false,
          }
        : { kind: 'reset', words: 'connection reset', lasting: false };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { kind: 'unreachable', words: 'no route to the host', lasting: false };
  }
  if (code === 'ETIMEDOUT' || code.includes('TIMEOUT')) return TIMED_OUT;
  return { kind: code || 'other', words: oneLine(error), lasting: false };
}

/**
 * An answer that will be tried again: a redirect, never followed, goes on until --forward-to changes (said at once);
 * any other (503, 429) may pass, and is said once it has lasted a minute.
 */
const answeredWith = (status: number): ForwardFailure =>
  status >= 300 && status < 400
    ? {
        kind: 'redirect',
        words: `the endpoint answers HTTP ${status}, a redirect (not followed: fix --forward-to)`,
        lasting: true,
      }
    : { kind: 'answer', words: `the endpoint answers HTTP ${status}`, lasting: false };

/** An error's first line, without the separator some end on (`… is not in the cert's list: `). */
const oneLine = (error: unknown) => firstLine(error).replace(/[\s:]+$/, '') || 'failed';

export interface ForwardHealthOptions {
  /** The endpoint as shown (redacted). */
  where: string;
  clock: Clock;
  /** A line --quiet does not silence. */
  alert(line: string): void;
}

/**
 * Watches the forwarder's tries: `watch` wraps its transport (a failure reworded in one line, each try's outcome
 * kept), `retrying` is told of each try that failed, `reached` of each answer the endpoint gave.
 */
export class ForwardHealth {
  /** The last try's outcome: the status it was answered with, a failure, or none (ended by its deadline). */
  private last: ForwardFailure | number | undefined;
  /** When the endpoint stopped answering: the first failed try since it last answered. */
  private downSince: number | undefined;
  /** The kinds of failure said since it last answered. */
  private readonly told = new Set<string>();

  constructor(private readonly options: ForwardHealthOptions) {}

  watch(transport: HttpTransport): HttpTransport {
    return {
      request: async (request) => {
        this.last = undefined;
        try {
          const response = await transport.request(request);
          this.last = response.statusCode;
          return response;
        } catch (error) {
          // Ended by the exchange (its deadline, or the tail ending): the exchange tells which, as it does.
          if (request.cancel?.reason !== undefined || request.signal?.aborted) throw error;
          const failure = (this.last = describeForwardFailure(error));
          // Its code kept, the forwarder words it as every network error (`connection refused`), else by this line.
          throw Object.assign(new Error(failure.words), { code: networkErrorCode(error), cause: error });
        }
      },
      close: () => transport.close(),
    };
  }

  /** A try failed and will be made again: a failure that will go on is said, once per kind while it lasts. */
  retrying(): void {
    // An answer tried again (503, 429): the endpoint is there but takes nothing, as bad as no answer once it lasts.
    const failure = typeof this.last === 'number' ? answeredWith(this.last) : (this.last ?? TIMED_OUT);
    const now = this.options.clock.now();
    const since = (this.downSince ??= now);
    if (this.told.has(failure.kind) || (!failure.lasting && now - since < LASTING_FAILURE_MS)) return;
    this.told.add(failure.kind);
    const lasted = failure.lasting ? '' : ` (for ${Math.round((now - since) / 1000)}s)`;
    this.options.alert(
      `warning: forwarding to ${this.options.where}: ${failure.words}${lasted}; events wait, tried again until it works`,
    );
  }

  /** The endpoint answered: after a failure said, that it works again (a later failure is said anew). */
  reached(): void {
    if (this.told.size > 0)
      this.options.alert(`forwarding to ${this.options.where}: the endpoint answers again`);
    this.told.clear();
    this.downSince = undefined;
  }
}
