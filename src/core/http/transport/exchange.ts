// One exchange over a transport, with the rules every caller shares: one deadline for the whole exchange, the one
// redacted --debug trace, compressed answers refused, and the body read within one size cap.
import type { Readable } from 'node:stream';
import type { HttpTransport, TransportRequest, TransportResponse } from '../transport.js';
import { NetworkError, UnreachableError } from '../../errors.js';
import { redactBodyText, redactHeaders, redactUrl } from '../../redact.js';
import { refuseEncodedAnswer } from '../answer-encoding.js';
import { anySignal } from '../any-signal.js';
import { abortError, Cancel, onAbort, onDeadline } from './cancel.js';

export interface ExchangeOptions {
  /**
   * Deadline of the whole exchange, body included, in ms; none for a body handed back to be read (`stream: true`: only
   * silence ends it). With `stream: 'any'` it covers the answer's head, all that is read.
   */
  deadlineMs?: number;
  /** Longest silence, waiting for the headers or for each piece of the body, in ms. */
  idleMs: number;
  /** Largest body read. */
  maxBytes: number;
  /**
   * `true`: a 2xx body is handed back unread (a download), other answers are read as usual; `'any'`: every answer's
   * body is handed back unread, whatever its status (a caller that needs only the status).
   */
  stream?: boolean | 'any';
  /**
   * Any of these cancels the exchange (Ctrl-C, a caller's own). The exchange's one controller listens to each: linking
   * them into one signal first cost every request of an export a second controller and its listeners.
   */
  signals?: readonly (AbortSignal | undefined)[];
  /** Debug trace lines, redacted here. */
  trace?: (line: string) => void;
  /** Values hidden from the trace wherever they appear (the bearer token in a custom header). */
  secrets?: string[];
  /** The clock the trace times the answer by. */
  now?: () => number;
  /** Told when the request has been handed to the system, all of it (see TransportRequest.onSent). */
  onSent?: () => void;
}

export interface Exchanged {
  status: number;
  headers: TransportResponse['headers'];
  /** The body read whole, unless it was left to stream. */
  text?: string;
  body: Readable;
}

/** The networkCode of an answer that stopped midway (UnreachableError). */
export const CUT_OFF = 'CLINIC_CUT_OFF';

/** Thrown when the whole-exchange deadline passes; callers word it (`deadlineMs` says how long it was). */
export class DeadlineError extends Error {
  readonly code = 'CLINIC_DEADLINE';
  constructor(readonly deadlineMs: number) {
    super(`no complete answer within ${deadlineMs / 1000}s`);
  }
}

export async function exchange(
  transport: HttpTransport,
  request: Omit<TransportRequest, 'headersTimeout' | 'bodyTimeout' | 'signal' | 'cancel'>,
  options: ExchangeOptions,
): Promise<Exchanged> {
  const { deadlineMs, signals = [] } = options;
  // A body handed back unread to be read by the caller (a download) is under no deadline of ours, only its head is
  // (a server answering `102 Processing` for ever sends something all the time, and no head); with `'any'` the
  // caller reads none, so the deadline covers all there is: the answer's head. A streamed body listens for as long
  // as it is read.
  if (options.stream === true || deadlineMs === undefined) {
    const head = deadlineMs === undefined ? undefined : new AbortController();
    const late = head && setTimeout(() => head.abort(new DeadlineError(deadlineMs!)), deadlineMs);
    const linked = anySignal([...signals, head?.signal]);
    let handedBack = false;
    try {
      const answer = await within(transport, request, options, { signal: linked.signal });
      handedBack = answer.text === undefined;
      return answer;
    } catch (error) {
      if (head?.signal.aborted && !signals.some((signal) => signal?.aborted)) throw head.signal.reason;
      throw error;
    } finally {
      clearTimeout(late);
      if (!handedBack) linked.release();
    }
  }
  // One deadline for the whole exchange (a body trickling a byte a second must not hang forever). Its timer and the
  // cancelling signals' listeners are shared with every other exchange in flight (cancel.ts).
  for (const signal of signals) if (signal?.aborted) throw signal.reason;
  const cancel = new Cancel();
  let late = false;
  const stops = [
    onDeadline(deadlineMs, () => {
      late = true;
      cancel.end(new Error('deadline'));
    }),
  ];
  for (const signal of signals) if (signal) stops.push(onAbort(signal, () => cancel.end(abortError(signal))));
  try {
    return await within(transport, request, options, { cancel });
  } catch (error) {
    if (late && !signals.some((signal) => signal?.aborted)) throw new DeadlineError(deadlineMs);
    throw error;
  } finally {
    for (const stop of stops) stop();
  }
}

async function within(
  transport: HttpTransport,
  request: Omit<TransportRequest, 'headersTimeout' | 'bodyTimeout' | 'signal' | 'cancel'>,
  options: ExchangeOptions,
  ending: Pick<TransportRequest, 'signal' | 'cancel'>,
): Promise<Exchanged> {
  const { trace, secrets = [], now = () => performance.now(), maxBytes, deadlineMs } = options;
  // Silence can last no longer than the whole exchange: a deadline no longer than the idle time covers it.
  const read = options.stream === undefined || options.stream === false;
  const idleMs = read && deadlineMs !== undefined && deadlineMs <= options.idleMs ? Infinity : options.idleMs;
  const url = request.origin + request.path;
  const started = trace ? now() : 0; // timed for the trace only: `performance` costs its first use a millisecond
  if (trace) {
    trace(`> ${request.method} ${redactUrl(url)}`);
    for (const [name, value] of Object.entries(redactHeaders(request.headers, secrets)))
      trace(`> ${name}: ${value}`);
    // A form (OAuth's codes and refresh tokens) is never shown; other text is, redacted (JSON key by key).
    const form = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded');
    if (typeof request.body === 'object') trace('> (multipart/form-data body)');
    else if (request.body && !form) trace(`> ${redactBodyText(request.body)}`);
  }
  const response = await transport.request({
    origin: request.origin,
    path: request.path,
    method: request.method,
    headers: request.headers,
    body: request.body,
    headersTimeout: idleMs,
    bodyTimeout: idleMs,
    ...ending,
    onSent: options.onSent,
  });
  if (trace) {
    trace(`< ${response.statusCode} (${Math.round(now() - started)} ms)`);
    // A server may echo the token back in a header: it is hidden there too.
    for (const [name, value] of Object.entries(redactHeaders(flattenHeaders(response.headers), secrets)))
      trace(`< ${name}: ${value}`);
  }
  const { statusCode: status, headers, body } = response;
  const streamed = options.stream === 'any' || (options.stream === true && status >= 200 && status < 300);
  try {
    refuseEncodedAnswer(headers, url);
    if (!streamed && Number(headers['content-length']) > maxBytes) throw tooLarge(url, maxBytes);
  } catch (error) {
    body.destroy();
    throw error;
  }
  if (streamed) return { status, headers, body };
  return { status, headers, body, text: await readCapped(body, url, maxBytes) };
}

/** Header names lower-cased, repeated values joined. */
export function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const tooLarge = (url: string, max: number) =>
  new NetworkError(
    `the answer from ${redactUrl(url)} is larger than ${Math.round(max / 1024 / 1024)} MiB; refusing to read it`,
  );

/**
 * The body as text, refused past `max` bytes (a 600 MB answer must not take the machine's memory). The one reader of
 * HTTP bodies, through the stream's events: its async iterator costs every start-up its set-up.
 */
export function readCapped(body: Readable, url: string, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        body.destroy();
        reject(tooLarge(url, max));
      } else chunks.push(chunk);
    });
    let ended = false;
    body.once('end', () => {
      ended = true;
      // A body in one piece (most pages) is decoded where it lies, not copied first.
      resolve((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)).toString('utf8'));
    });
    body.once('error', reject);
    // Destroyed before its end (the deadline, Ctrl-C): 'error' has said why, or this is the only word. Made only
    // then: an error (its stack, the URL parsed to redact it) on every answer was a bulk record's largest cost here.
    body.once('close', () => {
      if (!ended)
        reject(new UnreachableError(`the answer from ${redactUrl(url)} was cut off`, undefined, CUT_OFF));
    });
  });
}
