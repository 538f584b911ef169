// The one road onto the wire: Node's own http/https (its parser is native, where undici's WebAssembly llhttp costs a
// short-lived process over 100 ms to compile). Everything that speaks HTTP (the API client, OAuth, uploads,
// downloads, realtime authorization, doctor's probes) goes through this module and its folder, transport/.
import type { ClientRequestArgs, IncomingHttpHeaders } from 'node:http';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { createConnection, type NetConnectOpts } from 'node:net';
import type { Duplex, Readable } from 'node:stream';
import { isLoopbackHost } from '../secure-url.js';
import { requireOwnConnection } from './loopback-owner.js';
import { abortError, type Cancel } from './transport/cancel.js';
import type { MultipartBody } from './transport/multipart.js';

export interface TransportRequest {
  /** `scheme://host[:port]`, no path. */
  origin: string;
  /** The request target, sent as it is (already built and checked: see request-url.ts); starts with `/`. */
  path: string;
  method: string;
  headers: Record<string, string>;
  /** Text, or a multipart body streamed from disk with a known length. */
  body?: string | MultipartBody;
  /**
   * Longest wait for the headers, and then for each piece of the body (idle time), in ms; Infinity for none (a
   * deadline as short covers it: each timer costs a request of a long export its set-up).
   */
  headersTimeout?: number;
  bodyTimeout?: number;
  signal?: AbortSignal;
  /**
   * The other way to end it, which every transport honours as it does the signal: an exchange under a deadline ends
   * its request through a Cancel, not a signal of its own (transport/cancel.ts: a long export's requests share one
   * timer and one listener per signal). The transport hands it the way to end the request (`onEnd`).
   */
  cancel?: Cancel;
  /** Told once the whole request has been handed to the system (node:http writes it a turn or more later). */
  onSent?: () => void;
}

export interface TransportResponse {
  statusCode: number;
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>;
  body: Readable;
}

/**
 * What the callers need of a transport: NodeTransport sends; tests fake this interface (test/helpers). A request is
 * ended early by its signal or by its cancel, whichever it carries: every transport honours both (an exchange under
 * a deadline gives only a cancel).
 */
export interface HttpTransport {
  request(options: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}

const AGENT_OPTIONS = { keepAlive: true, maxSockets: 8 };

/**
 * node:http's agent, but a new connection to this machine (the sandbox, a port-forward) is handed to its request only
 * once the port it reached is known to be listened on by this user's process or root's (loopback-owner.ts): until
 * then nothing is written on it, neither a token nor a request line. Any other host goes as node:http sends it.
 */
class OwnLoopbackAgent extends HttpAgent {
  override createConnection(
    options: ClientRequestArgs,
    oncreate?: (error: Error | null, socket: Duplex) => void,
  ): Duplex | null | undefined {
    const socket = createConnection(options as NetConnectOpts);
    const host = options.host ?? options.hostname ?? '';
    if (!oncreate || !isLoopbackHost(host.includes(':') ? `[${host}]` : host)) return socket;
    const origin = `http://${host.includes(':') ? `[${host}]` : host}:${options.port ?? 80}`;
    // Until the socket is handed over, its errors are this agent's to report (node:http listens only after).
    const failed = (error: Error) => oncreate(error, socket);
    socket.once('error', failed);
    socket.once('connect', () => {
      requireOwnConnection(socket, origin).then(
        () => {
          socket.removeListener('error', failed);
          oncreate(null, socket);
        },
        (error: Error) => {
          socket.removeListener('error', failed);
          socket.destroy();
          oncreate(error, socket);
        },
      );
    });
    return undefined;
  }
}
const timedOut = (what: string) => Object.assign(new Error(`${what} timed out`), { code: 'ETIMEDOUT' });
const unaskedSwitch = (status: number | undefined) =>
  Object.assign(new Error(`the server switched protocols (HTTP ${status ?? 101}) unasked`), {
    code: 'CLINIC_UNASKED_UPGRADE',
  });

/**
 * A request's path, checked to be a request target and nothing more: it is sent as it is, on a connection to the
 * origin, never resolved against it (`new URL('//other-host/x', origin)` would be other-host).
 */
function checkedPath(path: string): string {
  if (!path.startsWith('/')) throw new Error(`the request path must start with '/': '${path}'`);
  return path;
}

type Send = typeof httpRequest;

/** Where an origin's requests go, as node:http's options (what urlToHttpOptions gives, made once per origin). */
export interface OriginOptions {
  protocol: string;
  hostname: string;
  port?: number;
}

/** `scheme://host[:port]` as request options: an IPv6 host without its brackets, a port only when one is given. */
export function originOptions(origin: string): OriginOptions {
  const url = new URL(origin);
  const { hostname, port } = url;
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return port === ''
    ? { protocol: url.protocol, hostname: host }
    : { protocol: url.protocol, hostname: host, port: Number(port) };
}

/** node:http or node:https for an origin; node:https (and with it TLS) loads on the first https request only. */
export async function requestFunction(origin: string): Promise<Send> {
  return origin.startsWith('https:') ? (await import('node:https')).request : httpRequest;
}

export class NodeTransport implements HttpTransport {
  private readonly http = new OwnLoopbackAgent(AGENT_OPTIONS);
  private https?: HttpAgent;
  /** Each origin parsed once (a long export sends thousands of requests to one). */
  private readonly origins = new Map<string, OriginOptions>();

  async request(options: TransportRequest): Promise<TransportResponse> {
    const secure = options.origin.startsWith('https:');
    // node:https loads on the first https request; a plain http request waits for nothing before it is made.
    const send = secure ? await requestFunction(options.origin) : httpRequest;
    if (secure) this.https ??= new (await import('node:https')).Agent(AGENT_OPTIONS);
    const { headersTimeout = 60_000, bodyTimeout = 60_000, signal, cancel, body } = options;
    const multipart = typeof body === 'object' ? body : undefined;
    const headers = multipart
      ? {
          ...options.headers,
          'content-type': multipart.contentType,
          'content-length': String(multipart.length),
        }
      : options.headers;
    return new Promise<TransportResponse>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      if (cancel?.reason) return reject(cancel.reason);
      let origin = this.origins.get(options.origin);
      if (!origin) this.origins.set(options.origin, (origin = originOptions(options.origin)));
      const req = send({
        ...origin,
        path: checkedPath(options.path),
        method: options.method,
        headers,
        agent: secure ? this.https : this.http,
      });
      let response: Readable | undefined;
      const fail = (error: Error) => {
        req.destroy(error);
        response?.destroy(error);
      };
      const onAbort = () => signal && fail(abortError(signal));
      signal?.addEventListener('abort', onAbort, { once: true });
      cancel?.onEnd(fail);
      if (headersTimeout !== Infinity)
        req.setTimeout(headersTimeout, () => fail(timedOut('waiting for the answer')));
      if (options.onSent) req.once('finish', options.onSent);
      req.once('error', (error) => {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      });
      // A switch of protocols no request here asks for: node:http hands a 101 only to 'upgrade' (and without a
      // listener drops the socket, leaving the request unanswered for ever). A failure of the exchange.
      req.once('upgrade', (res, socket) => {
        socket.destroy();
        signal?.removeEventListener('abort', onAbort);
        reject(unaskedSwitch(res.statusCode));
      });
      req.once('response', (res) => {
        response = res;
        if (bodyTimeout !== Infinity) req.setTimeout(bodyTimeout, () => fail(timedOut('reading the answer')));
        else if (headersTimeout !== Infinity) req.setTimeout(0);
        res.once('close', () => signal?.removeEventListener('abort', onAbort));
        // An error after the headers (a reset mid-body) reaches the reader through the body stream.
        req.removeAllListeners('error');
        req.on('error', () => {});
        resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res });
      });
      if (!multipart) return void req.end(body);
      // A file that fails to read ends the request with that error (the server sees a cut-off body).
      const stream = multipart.open();
      stream.once('error', (error) => fail(error));
      stream.pipe(req);
    });
  }

  /**
   * Stops what is still in flight; idle kept-alive connections are let go (unref'd), not destroyed: nothing here
   * keeps the process alive, and the server or the process's end closes them. (Node's net makes the stderr stream to
   * destroy a socket: half a millisecond of every run that never writes to stderr.)
   */
  async close(): Promise<void> {
    for (const agent of [this.http, this.https]) {
      if (!agent) continue;
      for (const sockets of Object.values(agent.freeSockets))
        for (const socket of sockets ?? []) socket.unref();
      for (const sockets of Object.values(agent.sockets))
        for (const socket of sockets ?? []) socket.destroy();
    }
  }
}
