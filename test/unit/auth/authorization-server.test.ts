// Finding the OAuth server: discovery when offered, the API document's paths otherwise; http only on loopback.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkAuthUrl, loadAuthorizationServer } from '../../../src/core/auth/oauth/authorization-server.js';
import { NetworkError, UsageError } from '../../../src/core/errors.js';
import { DISCOVERY_PATH, discoveryDocument } from '../../helpers/oauth-discovery.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A loopback server that offers its discovery document, with what `changes` lays over it. */
async function serveDiscovery(changes: Record<string, unknown> = {}) {
  const root = await serve((_req, res) => {
    const document = discoveryDocument(root, changes);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
  });
  return root;
}

describe('loadAuthorizationServer', () => {
  it('falls back to /oauth/authorize and /oauth/token when there is no discovery document', async () => {
    const seen: string[] = [];
    const root = await serve((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found."}');
    });
    const config = await loadAuthorizationServer({ authUrl: root, clientId: 'clinic-cli' });
    expect(seen).toEqual([DISCOVERY_PATH]);
    expect(config.serverMetadata()).toMatchObject({
      issuer: root,
      authorization_endpoint: `${root}/oauth/authorize`,
      token_endpoint: `${root}/oauth/token`,
    });
    expect(config.clientMetadata().client_id).toBe('clinic-cli');
  });

  it('uses the discovery document when there is one', async () => {
    const root = await serveDiscovery();
    const config = await loadAuthorizationServer({ authUrl: root, clientId: 'c' });
    expect(config.serverMetadata().revocation_endpoint).toBe(`${root}/oauth/revoke`);
    expect(config.serverMetadata()).toMatchObject(discoveryDocument(root));
  });

  it('allows http only for this machine', () => {
    expect(checkAuthUrl('https://auth.example.com').hostname).toBe('auth.example.com');
    expect(checkAuthUrl('http://127.0.0.1:8080').port).toBe('8080');
    expect(checkAuthUrl('http://localhost:8080').hostname).toBe('localhost');
    expect(() => checkAuthUrl('http://auth.example.com')).toThrow(UsageError);
  });
});

describe('a loopback server that names a clear-text address elsewhere', () => {
  it('is refused before any token is sent there', async () => {
    const root = await serveDiscovery({ token_endpoint: 'http://192.0.2.2/token' });
    const error = await loadAuthorizationServer({ authUrl: root, clientId: 'c' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain(
      'names a clear-text address elsewhere (http://192.0.2.2/token)',
    );
  });
});
