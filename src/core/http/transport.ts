// The HTTP transport: Node's own http/https behind the one call of undici's Dispatcher the client makes, so tests
// still pass undici's MockAgent. undici parses HTTP with a WebAssembly build of llhttp; compiling it costs a
// short-lived process over 100 ms (most of it spent waiting, at exit, for V8's background compilation), while
// node:http's parser is native. Multipart bodies (undici's FormData) still go through undici.
import type { IncomingHttpHeaders, ClientRequest, RequestOptions } from 'node:http';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { Readable } from 'node:stream';
import type { FormData } from 'undici';

export interface TransportRequest {
  /** `scheme://host[:port]`, no path. */
  origin: string;
  /** The request target, sent as it is (already built and checked: see request-url.ts); starts with `/`. */
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: string | FormData;
  /** Longest wait for the headers, and then for each piece of the body (idle time), in ms. */
  headersTimeout?: number;
  bodyTimeout?: number;
  signal?: AbortSignal;
}

export interface TransportResponse {
  statusCode: number;
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>;
  body: Readable;
}

/** What the HttpClient needs of a transport; undici's Agent and MockAgent fit it too. */
export interface HttpTransport {
  request(options: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}

const AGENT_OPTIONS = { keepAlive: true, maxSockets: 8 };
const timedOut = (what: string) => Object.assign(new Error(`${what} timed out`), { code: 'ETIMEDOUT' });

/**
 * A request's path, checked to be a request target and nothing more: it is sent as it is, on a connection to the
 * origin, never resolved against it (`new URL('//other-host/x', origin)` would be other-host).
 */
function checkedPath(path: string): string {
  if (!path.startsWith('/')) throw new Error(`the request path must start with '/': '${path}'`);
  return path;
}

export class NodeTransport implements HttpTransport {
  private readonly http = new HttpAgent(AGENT_OPTIONS);
  /** node:https (and with it TLS) loads on the first https request only: the sandbox never needs it. */
  private https?: { agent: HttpAgent; request: (url: URL, options: RequestOptions) => ClientRequest };

  async request(options: TransportRequest): Promise<TransportResponse> {
    if (options.body !== undefined && typeof options.body !== 'string') return this.multipart(options);
    const secure = options.origin.startsWith('https:');
    if (secure && !this.https) {
      const https = await import('node:https');
      this.https = { agent: new https.Agent(AGENT_OPTIONS), request: https.request };
    }
    const send = secure ? this.https!.request : httpRequest;
    const { headersTimeout = 60_000, bodyTimeout = 60_000, signal } = options;
    return new Promise<TransportResponse>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const req = send(new URL(options.origin), {
        path: checkedPath(options.path),
        method: options.method,
        headers: options.headers,
        agent: secure ? this.https!.agent : this.http,
      });
      let response: Readable | undefined;
      const fail = (error: Error) => {
        req.destroy(error);
        response?.destroy(error);
      };
      const onAbort = () => fail(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      signal?.addEventListener('abort', onAbort, { once: true });
      req.setTimeout(headersTimeout, () => fail(timedOut('waiting for the answer')));
      req.once('error', (error) => {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      });
      req.once('response', (res) => {
        response = res;
        req.setTimeout(bodyTimeout, () => fail(timedOut('reading the answer')));
        res.once('close', () => signal?.removeEventListener('abort', onAbort));
        // An error after the headers (a reset mid-body) reaches the reader through the body stream.
        req.removeAllListeners('error');
        req.on('error', () => {});
        resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res });
      });
      req.end(options.body);
    });
  }

  async close(): Promise<void> {
    this.http.destroy();
    this.https?.agent.destroy();
  }

  private async multipart(options: TransportRequest): Promise<TransportResponse> {
    const { getGlobalDispatcher } = await import('undici');
    const { headersTimeout, bodyTimeout, signal, method, headers, body } = options;
    // The dispatcher takes the origin and the path apart and sends the path as it is, as above.
    return getGlobalDispatcher().request({
      origin: options.origin,
      path: checkedPath(options.path),
      method: method as 'POST',
      headers,
      body: body as FormData,
      headersTimeout,
      bodyTimeout,
      signal,
    });
  }
}
