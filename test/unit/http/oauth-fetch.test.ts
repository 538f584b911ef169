// The bounded fetch openid-client uses: capped, uncompressed, within a deadline, never redirected; and every
// openid-client call (discovery, token, revocation, userinfo, JWKS) going through it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import * as client from 'openid-client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthorizationServer } from '../../../src/core/auth/oauth/authorization-server.js';
import { NetworkError } from '../../../src/core/errors.js';
import { boundedFetch } from '../../../src/core/http/oauth-fetch.js';
import { NodeTransport } from '../../../src/core/http/transport.js';
import { MAX_OAUTH_BYTES } from '../../../src/core/limits.js';
import { DISCOVERY_PATH, discoveryDocument } from '../../helpers/oauth-discovery.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let servers: Server[] = [];
const transport = new NodeTransport();
afterEach(async () => {
  await Promise.all(
    servers.map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))),
  );
  servers = [];
});

async function serve(handler: Handler): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => handler(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** 64 MiB of spaces, gzipped to about 64 KiB; sent four times over, it inflates to 256 MiB. */
let bomb: Buffer;
beforeAll(() => {
  bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '), { level: 9 });
});

const sendBomb = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  res.end(Buffer.concat([bomb, bomb, bomb, bomb]));
};

/** A plain body that never ends, written as fast as the client reads; counts what it got to send. */
function endless(sent: { bytes: number; hungUp: boolean }) {
  return (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, ' ');
    const pump = () => {
      while (!res.destroyed) {
        sent.bytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    res.on('close', () => (sent.hungUp = true));
    pump();
  };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as Error,
  );

describe('boundedFetch', () => {
  it('asks for identity and refuses a gzip answer, naming the server', async () => {
    let asked: string | undefined;
    const root = await serve((req, res) => {
      asked = req.headers['accept-encoding'];
      sendBomb(res);
    });
    const error = await failure(boundedFetch({ transport })(`${root}/token`));
    expect(asked).toBe('identity');
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe(
      `${root}/token sent a compressed answer (Content-Encoding: gzip), which clinic does not accept: it asks for identity (uncompressed) answers`,
    );
  });

  it.each(['br', 'deflate', 'identity, gzip', 'x-anything'])(
    'refuses Content-Encoding: %s',
    async (coding) => {
      const root = await serve((_req, res) => res.writeHead(200, { 'content-encoding': coding }).end('{}'));
      const error = await failure(boundedFetch({ transport })(`${root}/x`));
      expect(error.message).toContain('sent a compressed answer');
    },
  );

  it('takes an answer marked identity', async () => {
    const root = await serve((_req, res) =>
      res
        .writeHead(200, { 'content-encoding': 'identity', 'content-type': 'application/json' })
        .end('{"a":1}'),
    );
    expect(await (await boundedFetch({ transport })(`${root}/x`)).json()).toEqual({ a: 1 });
  });

  it('stops reading an endless body at the cap: the server sends a bounded amount before the hang-up', async () => {
    const sent = { bytes: 0, hungUp: false };
    const answer = endless(sent);
    const root = await serve((_req, res) => answer(res));
    const error = await failure(boundedFetch({ transport })(`${root}/jwks`));
    expect(error.message).toBe(`the answer from ${root}/jwks is larger than 1 MiB; refusing to read it`);
    for (let i = 0; i < 100 && !sent.hungUp; i++) await new Promise((r) => setTimeout(r, 20));
    expect(sent.hungUp).toBe(true);
    // The cap, plus what socket buffers on both sides hold: far from unbounded.
    expect(sent.bytes).toBeLessThan(32 * MAX_OAUTH_BYTES);
  });

  it('refuses a declared Content-Length over the cap before reading', async () => {
    let written = 0;
    const root = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(MAX_OAUTH_BYTES + 1) });
      written = 10;
      res.write('0123456789');
    });
    const error = await failure(boundedFetch({ transport })(`${root}/x`));
    expect(error.message).toContain('is larger than 1 MiB');
    expect(written).toBe(10);
  });

  it('ends a body that trickles a byte at a time at the deadline', async () => {
    const root = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const error = await failure(boundedFetch({ transport, timeoutMs: 600 })(`${root}/slow`));
    expect(error.message).toBe(`${root}/slow: no complete answer within 0.6s`);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('hands a redirect back as it came, never following it', async () => {
    let elsewhere = 0;
    const other = await serve((_req, res) => (elsewhere++, res.end('{}')));
    const root = await serve((_req, res) => res.writeHead(302, { location: `${other}/x` }).end());
    const response = await boundedFetch({ transport })(`${root}/x`, { redirect: 'follow' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${other}/x`);
    expect(elsewhere).toBe(0);
  });

  it('posts a form body and gives back status, headers and body', async () => {
    const root = await serve((req, res, body) =>
      res
        .writeHead(400, { 'content-type': 'application/json', 'x-seen': `${req.method} ${body}` })
        .end('{"error":"invalid_grant"}'),
    );
    const response = await boundedFetch({ transport })(`${root}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r' }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-seen')).toBe('POST grant_type=refresh_token&refresh_token=r');
    expect(await response.json()).toEqual({ error: 'invalid_grant' });
  });

  it('turns a status no Response can carry into an error', async () => {
    const root = await serve((_req, res) => res.writeHead(999).end());
    const error = await failure(boundedFetch({ transport })(`${root}/x`));
    expect(error.message).toContain('answered with HTTP status 999');
  });

  it('names the server it cannot reach', async () => {
    const root = await serve((_req, res) => res.end());
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const error = await failure(boundedFetch({ transport })(`${root}/x`));
    expect(error.message).toBe(`cannot reach ${root}: connection refused`);
  });
});

/** A sign-in server whose endpoint `hostile` answers with `answer`; the others answer properly. */
async function oauthServer(hostile: string, answer: (res: ServerResponse) => void) {
  const root = await serve((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === hostile) return answer(res);
    const json = (value: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (path === DISCOVERY_PATH)
      return json(discoveryDocument(root, { id_token_signing_alg_values_supported: ['RS256'] }));
    if (path === '/oauth/token') {
      // An ID token, so that non-repudiation checks fetch the JWKS (its signature is never reached).
      const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      const claims = { iss: root, aud: 'c', sub: '1', iat: now, exp: now + 60 };
      return json({
        access_token: 'a',
        token_type: 'Bearer',
        expires_in: 60,
        id_token: `${part({ alg: 'RS256', kid: 'k' })}.${part(claims)}.${part('sig')}`,
      });
    }
    res.writeHead(404).end();
  });
  return root;
}

const CALLS: Record<string, (config: client.Configuration) => Promise<unknown>> = {
  '/oauth/token': (config) => client.refreshTokenGrant(config, 'r'),
  '/oauth/revoke': (config) => client.tokenRevocation(config, 'r'),
  '/oauth/userinfo': (config) => client.fetchUserInfo(config, 'a', client.skipSubjectCheck),
  '/oauth/jwks': (config) => {
    client.enableNonRepudiationChecks(config);
    return client.refreshTokenGrant(config, 'r');
  },
};

describe('every openid-client call goes through the bounded fetch', () => {
  const hostile = {
    'a gzip bomb': sendBomb,
    'an endless body': endless({ bytes: 0, hungUp: false }),
  };
  for (const [what, answer] of Object.entries(hostile)) {
    it(`discovery answered with ${what}: refused, naming the server`, async () => {
      const root = await oauthServer(DISCOVERY_PATH, answer);
      const error = await failure(loadAuthorizationServer({ authUrl: root, clientId: 'c', transport }));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error.message).toContain(`${root}${DISCOVERY_PATH}`);
      expect(error.message).toMatch(/compressed answer|larger than 1 MiB/);
    });
    for (const [path, call] of Object.entries(CALLS)) {
      it(`${path} answered with ${what}: refused with our message`, async () => {
        const root = await oauthServer(path, answer);
        const config = await loadAuthorizationServer({ authUrl: root, clientId: 'c', transport });
        const error = await failure(call(config));
        expect(error).toBeInstanceOf(client.ClientError);
        expect(error.message).toContain(`${root}${path}`);
        expect(error.message).toMatch(/compressed answer|larger than 1 MiB/);
        expect(error.cause).toBeInstanceOf(NetworkError);
      });
    }
  }
});
