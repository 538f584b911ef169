// A fake of the HTTP transport's interface for in-process tests: routes answered in order, every request recorded,
// and verify() failing on a route never used (gh's httpmock `reg.Verify`). An unrouted request fails as the network
// would, so a test that sends what it should not fails.
import { Readable } from 'node:stream';
import type { HttpTransport, TransportRequest, TransportResponse } from '../../src/core/http/transport.js';

export interface FakeRequest {
  method: string;
  /** The request target, query included, as sent. */
  path: string;
  origin: string;
  /** Lower-cased names. */
  headers: Record<string, string>;
  /** A text body; a multipart body is recorded as its content type only. */
  body?: string;
}

export interface FakeReply {
  status: number;
  /** The body; chunks as they are made (an endless stream, a body too large to hold) when iterable. */
  body?: string | Buffer | Iterable<Buffer>;
  headers?: Record<string, string>;
}

/** An answer, or an Error to fail the request with (a reset, a refused connection). */
export type FakeAnswer = FakeReply | Error;

export type PathMatch = string | RegExp | ((path: string) => boolean);

interface Route {
  method: string;
  path: PathMatch;
  answer: (request: FakeRequest) => FakeAnswer;
  /** Uses left; Infinity for a route that answers every time. */
  left: number;
  used: number;
}

const matches = (match: PathMatch, path: string) =>
  typeof match === 'string' ? match === path : match instanceof RegExp ? match.test(path) : match(path);

export class FakeTransport implements HttpTransport {
  readonly requests: FakeRequest[] = [];
  private readonly routes: Route[] = [];

  /** Answers `method path` (`times` times, or every time with `persist`). */
  on(
    method: string,
    path: PathMatch,
    answer: FakeAnswer | ((request: FakeRequest) => FakeAnswer),
    { times = 1, persist = false }: { times?: number; persist?: boolean } = {},
  ): this {
    const reply = typeof answer === 'function' ? answer : () => answer;
    this.routes.push({ method, path, answer: reply, left: persist ? Infinity : times, used: 0 });
    return this;
  }

  /** Routes with uses left (persistent ones only when never used). */
  pending(): string[] {
    return this.routes
      .filter((route) => (route.left === Infinity ? route.used === 0 : route.left > 0))
      .map((route) => `${route.method} ${String(route.path)}`);
  }

  /** Throws when a route was never used: the code under test sent less than the test expected. */
  verify(): void {
    const pending = this.pending();
    if (pending.length) throw new Error(`routes never used:\n  ${pending.join('\n  ')}`);
  }

  async request(options: TransportRequest): Promise<TransportResponse> {
    if (options.signal?.aborted) throw options.signal.reason;
    if (options.cancel?.reason) throw options.cancel.reason;
    const headers = Object.fromEntries(Object.entries(options.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const { body } = options;
    const request: FakeRequest = {
      method: options.method,
      path: options.path,
      origin: options.origin,
      headers: typeof body === 'object' ? { ...headers, 'content-type': body.contentType } : headers,
      body: typeof body === 'string' ? body : undefined,
    };
    options.onSent?.(); // the request is in hand: as on the wire
    this.requests.push(request);
    const route = this.routes.find(
      (r) => r.left > 0 && r.method === request.method && matches(r.path, request.path),
    );
    if (!route)
      throw Object.assign(new Error(`no fake route for ${request.method} ${request.origin}${request.path}`), {
        code: 'FAKE_NO_ROUTE',
      });
    route.left--;
    route.used++;
    const answer = route.answer(request);
    if (answer instanceof Error) throw answer;
    const reply = answer.body;
    if (reply !== undefined && typeof reply !== 'string' && !Buffer.isBuffer(reply))
      return { statusCode: answer.status, headers: lowerKeys(answer.headers), body: Readable.from(reply) };
    const bytes = Buffer.from(reply ?? '');
    return {
      statusCode: answer.status,
      headers: { 'content-length': String(bytes.length), ...lowerKeys(answer.headers) },
      body: Readable.from(bytes.length ? [bytes] : []),
    };
  }

  async close(): Promise<void> {}
}

const lowerKeys = (headers: Record<string, string> = {}) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
