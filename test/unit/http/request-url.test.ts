// The request URL builder: a corpus of hostile paths an attacker would try, a property for any path at all, the
// client refusing before anything reaches the transport, and the transport never resolving a path.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { HttpClient } from '../../../src/core/http/client.js';
import { apiBase, buildRequestUrl, sameOriginUrl } from '../../../src/core/http/request-url.js';
import {
  NodeTransport,
  type HttpTransport,
  type TransportRequest,
} from '../../../src/core/http/transport.js';
import { fakeClock } from '../../helpers/fake-clock.js';

const BASE = apiBase('http://api.test:8080/api');

const build = (path: string, base = BASE) => buildRequestUrl(base, path).href;

/** Each of these would reach another host, another path than base_url's, or a server's reading of one. */
const HOSTILE = [
  '/..//127.0.0.1:9999/x',
  '//127.0.0.1:9999/x',
  '/.//127.0.0.1:9999/x',
  '/%2e//127.0.0.1:9999/x',
  '/..',
  '/../',
  '/../apix',
  '/../other/v1/x',
  '/v1/../../apix',
  '/v1/customers/../../../x',
  '/%2e%2e/x',
  '/%2E%2E/x',
  '/%2E./x',
  '/.%2e/x',
  '/v1/%2e%2e/%2e%2e/x',
  '/..%2f..%2fx',
  '/v1/%2F%2F127.0.0.1/x',
  '/v1/%5c..%5cx',
  '/v1/..%00/x',
  '/v1/x%0D%0AHost:%20evil',
  '\\\\127.0.0.1:9999/x',
  '/\\127.0.0.1:9999/x',
  '/..\\..\\x',
  '/.\t./x',
  '/.\n./x',
  '/v1/\r\n../../x',
  '/v1/x\u0000',
  '/v1/..;/..;/x',
  '/v1/x;jsessionid=1',
  '/v1/customers?x=1',
  '/v1/customers#frag',
  'http://127.0.0.1:9999/x',
  '/http://127.0.0.1:9999/x',
  'https:/\\127.0.0.1/x',
];

/** And these stay below base_url: sent exactly as shown. */
const ALLOWED: [string, string][] = [
  ['/v1/customers', 'http://api.test:8080/api/v1/customers'],
  ['v1/customers', 'http://api.test:8080/api/v1/customers'],
  ['/v1/customers/', 'http://api.test:8080/api/v1/customers/'],
  ['', 'http://api.test:8080/api/'],
  ['/v1/customers/../channels', 'http://api.test:8080/api/v1/channels'],
  ['/v1/./customers', 'http://api.test:8080/api/v1/customers'],
  ['/v1/%2e%2e/v1/account', 'http://api.test:8080/api/v1/account'],
  ['/v1/users/ada@127.0.0.1:9999', 'http://api.test:8080/api/v1/users/ada@127.0.0.1:9999'],
  ['@127.0.0.1:9999/x', 'http://api.test:8080/api/@127.0.0.1:9999/x'],
  ['/v1/a b', 'http://api.test:8080/api/v1/a%20b'],
  ['/v1/%252e%252e/x', 'http://api.test:8080/api/v1/%252e%252e/x'],
];

describe('buildRequestUrl: hostile paths', () => {
  it.each(HOSTILE)('refuses %j with a usage error', (path) => {
    expect(() => build(path)).toThrow(UsageError);
  });

  it.each(ALLOWED)('keeps %j below base_url: %s', (path, url) => {
    expect(build(path)).toBe(url);
  });

  it('base http://h/api reaches neither http://h/apix nor http://h/other', () => {
    for (const path of ['/../apix', '/../apix/v1', '/..//apix', '/../other', '/%2e%2e/other'])
      expect(() => build(path)).toThrow(UsageError);
  });

  it('a base without a path still never yields a protocol-relative path', () => {
    const bare = apiBase('http://api.test:8080/');
    for (const path of ['//127.0.0.1:9999/x', '/.//127.0.0.1:9999/x', '/..//127.0.0.1:9999/x'])
      expect(() => build(path, bare)).toThrow(UsageError);
    expect(build('/../v1/x', bare)).toBe('http://api.test:8080/v1/x');
  });

  it('adds the query as parameters, encoded', () => {
    const { href } = buildRequestUrl(BASE, '/v1/customers', new URLSearchParams([['q', '#/../x?&']]));
    expect(href).toBe('http://api.test:8080/api/v1/customers?q=%23%2F..%2Fx%3F%26');
  });

  it('gives the path below base_url, dot segments resolved', () => {
    expect(buildRequestUrl(BASE, '/v1/account/../customers').path).toBe('/v1/customers');
  });
});

describe('buildRequestUrl: any path', () => {
  /** Pieces an attacker combines, plus arbitrary text. */
  const piece = fc.oneof(
    fc.constantFrom(
      '/',
      '//',
      '.',
      '..',
      '%2e',
      '%2E',
      '%2e%2e',
      '.%2E',
      '%2f',
      '%2F',
      '%5c',
      '\\',
      '@',
      ':',
      ';',
      '?',
      '#',
      '\t',
      '\n',
      '\r',
      ' ',
      '127.0.0.1:9999',
      'evil.test',
      'api',
      'apix',
      'v1',
      'http:',
      'https://',
      '%00',
      '%',
      '\u3002',
      '\uff0f',
      '\uff0e',
    ),
    fc.string({ unit: 'binary', maxLength: 6 }),
  );
  const path = fc.oneof(
    fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')),
    fc.string({ unit: 'binary' }),
  );
  const bases = [
    'http://api.test:8080/api',
    'https://api.test/',
    'https://api.test/a/b/',
    'http://[::1]:3000/api',
  ];

  it('either refuses, or stays on base_url origin and under its path', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.constantFrom(...bases), path, (baseUrl, candidate) => {
        const base = apiBase(baseUrl);
        let built: URL;
        let sent: { href: string; origin: string; target: string };
        try {
          sent = buildRequestUrl(base, candidate);
          built = new URL(sent.href);
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
          return;
        }
        expect(built.origin).toBe(new URL(baseUrl).origin);
        expect(built.pathname.startsWith(`${base.prefix}/`)).toBe(true);
        expect(built.pathname).not.toContain('//');
        expect(built.username + built.password + built.hash).toBe('');
        // What the transport sends (origin + target as is) is the same address again, as a URL writes it.
        expect(sent.origin + sent.target).toBe(sent.href);
        expect(built.href).toBe(sent.href);
        // Asked again (from the client's cache of checked paths), the same answer.
        expect(buildRequestUrl(base, candidate)).toEqual(sent);
        accepted++;
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(300); // the property is not vacuous: many paths are taken
  });
});

describe('sameOriginUrl', () => {
  it('takes an address on base_url origin, whatever its path', () => {
    expect(sameOriginUrl(BASE, 'http://api.test:8080/broadcasting/auth').href).toBe(
      'http://api.test:8080/broadcasting/auth',
    );
  });

  it.each([
    'http://api.test:8081/broadcasting/auth',
    'https://api.test:8080/broadcasting/auth',
    'http://evil.test/api/broadcasting/auth',
    'http://api.test:8080@evil.test/x',
    'not a url',
  ])('refuses %s naming the setting', (address) => {
    expect(() => sameOriginUrl(BASE, address, 'realtime.auth_endpoint')).toThrow(/realtime\.auth_endpoint/);
  });
});

/** A transport that records what it was asked to send and answers 200. */
function recordingTransport(): HttpTransport & { sent: TransportRequest[] } {
  const sent: TransportRequest[] = [];
  return {
    sent,
    async request(options) {
      sent.push(options);
      const { Readable } = await import('node:stream');
      return { statusCode: 200, headers: {}, body: Readable.from([Buffer.from('{}')]) };
    },
    async close() {},
  };
}

const clientOn = (dispatcher: HttpTransport) =>
  new HttpClient({
    baseUrl: 'http://api.test:8080/api',
    tenant: '1',
    userAgent: 'test',
    tokens: { accessToken: async () => 'token-abcdefgh', renewAfterRejection: async () => false },
    transport: dispatcher,
    clock: fakeClock(),
    maxRetries: 0,
  });

describe('HttpClient: one origin', () => {
  it.each(HOSTILE)('refuses %j before the transport is asked for anything', async (path) => {
    const transport = recordingTransport();
    await expect(clientOn(transport).request({ method: 'GET', path })).rejects.toThrow(UsageError);
    expect(transport.sent).toEqual([]);
  });

  it('an absolute address on another origin is refused, and nothing is sent', async () => {
    const transport = recordingTransport();
    const request = { method: 'POST', path: '/broadcasting/auth', url: 'http://127.0.0.1:9999/auth' };
    await expect(clientOn(transport).request(request)).rejects.toThrow(UsageError);
    expect(transport.sent).toEqual([]);
  });

  it('hands the transport base_url origin and the built path, which dry runs show', async () => {
    const transport = recordingTransport();
    const client = clientOn(transport);
    const request = { method: 'GET', path: '/v1/customers/../channels', query: { page: 2 } };
    await client.request(request);
    expect(transport.sent.map(({ origin, path }) => ({ origin, path }))).toEqual([
      { origin: 'http://api.test:8080', path: '/api/v1/channels?page=2' },
    ]);
    expect(client.prepare(request).url).toBe('http://api.test:8080/api/v1/channels?page=2');
  });
});

describe('NodeTransport: a path is sent as it is, never resolved', () => {
  let api: Server;
  let other: Server;
  const seen: string[] = [];
  const serve = (name: string) =>
    new Promise<Server>((resolve) => {
      const server = createServer((req, res) => {
        seen.push(`${name} ${req.url}`);
        res.end('{}');
      });
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
  const port = (server: Server) => (server.address() as AddressInfo).port;

  beforeAll(async () => {
    api = await serve('api');
    other = await serve('other');
  });
  afterAll(async () => {
    await Promise.all([api, other].map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('a path starting with // goes to the origin, not to the host it names', async () => {
    const transport = new NodeTransport();
    try {
      const path = `//127.0.0.1:${port(other)}/x`;
      const answer = await transport.request({
        origin: `http://127.0.0.1:${port(api)}`,
        path,
        method: 'GET',
        headers: {},
      });
      answer.body.resume();
      expect(seen).toEqual([`api ${path}`]);
    } finally {
      await transport.close();
    }
  });

  it('a path not starting with / is refused', async () => {
    const transport = new NodeTransport();
    await expect(
      transport.request({
        origin: `http://127.0.0.1:${port(api)}`,
        path: `@127.0.0.1:${port(other)}/x`,
        method: 'GET',
        headers: {},
      }),
    ).rejects.toThrow(/must start with/);
    await transport.close();
  });
});

describe('the paths a client has checked', () => {
  it('are kept, a bounded number of them, and a refused path is refused every time', () => {
    const base = apiBase('http://api.test:8080/api');
    for (let id = 1; id <= 300; id++)
      expect(build(`/v1/customers/${id}`, base)).toContain(`/customers/${id}`);
    expect(base.joined.size).toBeLessThanOrEqual(256);
    expect(base.joined.size).toBeGreaterThan(0);
    for (let round = 0; round < 2; round++) expect(() => build('/v1/../../x', base)).toThrow(UsageError);
  });
});

describe('the query of a built request address', () => {
  it('is the query as URLSearchParams writes it, whatever its keys and values', () => {
    const base = apiBase('https://api.example.com/api');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.string({ unit: 'grapheme' }))), (pairs) => {
        const query = new URLSearchParams(pairs);
        const url = new URL(buildRequestUrl(base, '/v1/customers', query).href);
        const expected = new URL('https://api.example.com/api/v1/customers');
        for (const [key, value] of pairs) expected.searchParams.append(key, value);
        expect(url.href).toBe(expected.href);
        expect([...url.searchParams]).toEqual(pairs);
      }),
    );
  });
});
