// undici MockAgent helpers for unit tests: no real network, every request recorded.
import { type Dispatcher, MockAgent } from 'undici';
import { HttpClient, type HttpClientOptions } from '../../src/core/http/client.js';
import { type FakeClock, fakeClock } from './fake-clock.js';

export const ORIGIN = 'https://api.clinic.test';
export const BASE_URL = `${ORIGIN}/api`;

export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Headers as undici hands them to a mock reply callback (object or flat array), lower-cased. */
export function headerRecord(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) out[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
  } else if (raw && typeof raw === 'object') {
    for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k.toLowerCase()] = String(v);
  }
  return out;
}

export function newMockAgent(): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return agent;
}

/**
 * Queues one interceptor per reply (in order) on `method path`, recording what was sent into `seen`.
 * A string body is sent as is; anything else as JSON.
 */
export function queueReplies(
  agent: MockAgent,
  seen: SeenRequest[],
  method: string,
  path: string | RegExp | ((path: string) => boolean),
  replies: Reply[],
): void {
  const pool = agent.get(ORIGIN);
  for (const reply of replies) {
    pool.intercept({ path, method }).reply((options) => {
      seen.push({
        method: options.method,
        path: options.path,
        headers: headerRecord(options.headers),
        body: typeof options.body === 'string' ? options.body : undefined,
      });
      const isText = typeof reply.body === 'string';
      return {
        statusCode: reply.status,
        data: reply.body === undefined ? '' : isText ? (reply.body as string) : JSON.stringify(reply.body),
        responseOptions: {
          headers: {
            ...(isText || reply.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...reply.headers,
          },
        },
      };
    });
  }
}

export interface TestClient {
  client: HttpClient;
  clock: FakeClock;
  agent: MockAgent;
  seen: SeenRequest[];
}

export function testClient(
  overrides: Partial<HttpClientOptions> = {},
  agent: MockAgent = newMockAgent(),
): TestClient {
  const clock = (overrides.clock as FakeClock | undefined) ?? fakeClock();
  const client = new HttpClient({
    baseUrl: BASE_URL,
    tenant: '7',
    userAgent: 'clinic/test',
    tokens: { accessToken: async () => 'tok-A', renewAfterRejection: async () => false },
    dispatcher: agent as Dispatcher,
    maxRetries: 4,
    ...overrides,
    clock,
  });
  return { client, clock, agent, seen: [] };
}
