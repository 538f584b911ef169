// The fake API for unit tests: a FakeTransport (no network), every request recorded.
import { HttpClient, type HttpClientOptions } from '../../src/core/http/client.js';
import { FakeTransport, type FakeRequest, type PathMatch } from '../helpers/fake-transport.js';
import { type FakeClock, fakeClock } from './fake-clock.js';

export const ORIGIN = 'https://api.clinic.test';
export const BASE_URL = `${ORIGIN}/api`;

export type SeenRequest = Pick<FakeRequest, 'method' | 'path' | 'headers' | 'body'>;

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export function newFakeTransport(): FakeTransport {
  return new FakeTransport();
}

/** A reply as sent: a string body as is, anything else as JSON. */
export function fakeReply(reply: Reply) {
  const isText = typeof reply.body === 'string';
  return {
    status: reply.status,
    body: reply.body === undefined ? '' : isText ? (reply.body as string) : JSON.stringify(reply.body),
    headers: {
      ...(isText || reply.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...reply.headers,
    },
  };
}

/**
 * Queues one route per reply (in order) on `method path`, recording what was sent into `seen`.
 * A string body is sent as is; anything else as JSON.
 */
export function queueReplies(
  transport: FakeTransport,
  seen: SeenRequest[],
  method: string,
  path: PathMatch,
  replies: Reply[],
): void {
  for (const reply of replies) {
    transport.on(method, path, ({ method, path, headers, body }) => {
      seen.push({ method, path, headers, body });
      return fakeReply(reply);
    });
  }
}

export interface TestClient {
  client: HttpClient;
  clock: FakeClock;
  transport: FakeTransport;
  seen: SeenRequest[];
}

export function testClient(
  overrides: Partial<HttpClientOptions> = {},
  transport: FakeTransport = newFakeTransport(),
): TestClient {
  const clock = (overrides.clock as FakeClock | undefined) ?? fakeClock();
  const client = new HttpClient({
    baseUrl: BASE_URL,
    tenant: '7',
    userAgent: 'clinic/test',
    tokens: { accessToken: async () => 'tok-A', renewAfterRejection: async () => false },
    transport,
    maxRetries: 4,
    ...overrides,
    clock,
  });
  return { client, clock, transport, seen: [] };
}
