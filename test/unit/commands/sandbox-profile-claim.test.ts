// `clinic sandbox start`'s profile: is the sandbox a profile points at still running (asked without a credential,
// within a short bound, whatever answers on that port), and what is written or left alone accordingly.
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/cli/context.js';
import { parseGlobals } from '../../../src/cli/globals.js';
import {
  claimProfile,
  freeProfileName,
  leftAloneNote,
  PROBE_DEADLINE_MS,
  sandboxAt,
} from '../../../src/commands/sandbox/profile-claim.js';
import { updateProfile } from '../../../src/core/config/config-file.js';
import { NodeTransport } from '../../../src/core/http/transport.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { newFakeTransport } from '../../helpers/mock-api.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const transport = new NodeTransport();
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, records: 1, rateLimit: 1 });
});

afterAll(async () => {
  await sandbox.close();
  await transport.close();
});

const servers: (Server | TcpServer)[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server of the test's own on 127.0.0.1 (its connections cut after the test); the base_url a profile would hold. */
async function serve(server: Server | TcpServer): Promise<string> {
  servers.push(server);
  server.on('connection', (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/api`;
}

/** sandboxAt, timed. */
async function timed(baseUrl: string, deadlineMs?: number) {
  const started = Date.now();
  const instance = await sandboxAt(transport, baseUrl, deadlineMs);
  return { instance, ms: Date.now() - started };
}

describe('sandboxAt: is a clinic sandbox answering there', () => {
  it('names a running sandbox by its instance, asking without any credential', async () => {
    const before = sandbox.requests.length;
    expect(await sandboxAt(transport, sandbox.info.base_url)).toBe(sandbox.instance);
    const asked = sandbox.requests.slice(before);
    expect(asked.map(({ method, path }) => `${method} ${path}`)).toEqual(['GET /.well-known/clinic-sandbox']);
    expect(Object.keys(asked[0]!.headers).sort()).toEqual(['accept', 'connection', 'host']);
  });

  it('answers however spent the rate limit is (the identity is not under /api)', async () => {
    for (let i = 0; i < 3; i++) await fetch(`${sandbox.info.base_url}/v1/account`);
    expect(await sandboxAt(transport, sandbox.info.base_url)).toBe(sandbox.instance);
  });

  it('two sandboxes are two instances, whatever their seed', async () => {
    const other = await startSandbox({ port: 0, records: 1 });
    try {
      expect(await sandboxAt(transport, other.info.base_url)).toBe(other.instance);
      expect(other.instance).not.toBe(sandbox.instance);
    } finally {
      await other.close();
    }
    // Stopped: nothing answers there any more.
    expect(await timed(other.info.base_url)).toEqual({ instance: undefined, ms: expect.any(Number) });
  });

  it('asks nothing of an address off this machine, over https, or that is no URL', async () => {
    const none = newFakeTransport(); // fails any request sent through it
    for (const url of [
      'https://api.example.com/api',
      'http://10.0.0.5:8080/api',
      'https://127.0.0.1:8443/api',
      'not a url',
    ])
      expect(await sandboxAt(none, url)).toBeUndefined();
    expect(none.requests).toEqual([]);
  });

  it('is no one on a port nothing listens on, at once', async () => {
    const url = await serve(createTcpServer());
    const closed = servers.pop() as TcpServer;
    await new Promise((resolve) => closed.close(resolve));
    const { instance, ms } = await timed(url);
    expect(instance).toBeUndefined();
    expect(ms).toBeLessThan(PROBE_DEADLINE_MS);
  });

  const notSandboxes: [string, (res: import('node:http').ServerResponse) => void][] = [
    [
      'a web page',
      (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>dev server</html>'),
    ],
    ['another JSON service', (res) => res.writeHead(200).end('{"service":"something-else","instance":"x"}')],
    [
      'a sandbox-like answer without an instance',
      (res) => res.writeHead(200).end('{"service":"clinic-sandbox"}'),
    ],
    ['an empty instance', (res) => res.writeHead(200).end('{"service":"clinic-sandbox","instance":""}')],
    ['a JSON array', (res) => res.writeHead(200).end('["clinic-sandbox"]')],
    ['a 404', (res) => res.writeHead(404).end('{"message":"Not Found."}')],
    [
      'a redirect to a sandbox',
      (res) => res.writeHead(302, { location: `${sandbox.info.auth_url}/.well-known/clinic-sandbox` }).end(),
    ],
    [
      'the right words in a 500',
      (res) => res.writeHead(500).end('{"service":"clinic-sandbox","instance":"i"}'),
    ],
    [
      'an answer too large to be one',
      (res) =>
        res.writeHead(200).end(`{"service":"clinic-sandbox","instance":"i","pad":"${'x'.repeat(100_000)}"}`),
    ],
    [
      'a compressed answer',
      (res) =>
        res.writeHead(200, { 'content-encoding': 'gzip' }).end('{"service":"clinic-sandbox","instance":"i"}'),
    ],
  ];

  it.each(notSandboxes)('is no sandbox: %s', async (_what, answer) => {
    const seen: IncomingHttpHeaders[] = [];
    const url = await serve(
      createHttpServer((req, res) => {
        seen.push(req.headers);
        answer(res);
      }),
    );
    expect(await sandboxAt(transport, url)).toBeUndefined();
    expect(seen).toHaveLength(1); // the redirect is not followed
    expect(seen[0]).not.toHaveProperty('authorization');
    expect(seen[0]).not.toHaveProperty('cookie');
  });

  it('is no sandbox: bytes that are not HTTP', async () => {
    const url = await serve(createTcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n')));
    expect(await sandboxAt(transport, url)).toBeUndefined();
  });

  it('gives up within its deadline on a port that takes the connection and never answers', async () => {
    const url = await serve(createTcpServer()); // takes connections, says nothing
    const { instance, ms } = await timed(url, 300);
    expect(instance).toBeUndefined();
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(1500);
  });

  it('gives up within its deadline on an answer that trickles for ever', async () => {
    const timers: NodeJS.Timeout[] = [];
    const url = await serve(
      createHttpServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"service":"clinic-sandbox",');
        timers.push(setInterval(() => res.write(' '), 50));
      }),
    );
    const { instance, ms } = await timed(url, 300);
    for (const timer of timers) clearInterval(timer);
    expect(instance).toBeUndefined();
    expect(ms).toBeLessThan(1500);
  });

  it('waits by default no longer than PROBE_DEADLINE_MS, a short bound', async () => {
    expect(PROBE_DEADLINE_MS).toBeLessThanOrEqual(2000);
    const url = await serve(createTcpServer());
    const { ms } = await timed(url);
    expect(ms).toBeLessThan(PROBE_DEADLINE_MS + 1000);
  });
});

describe('claimProfile', () => {
  const dir = useTempDir('clinic-claim-');
  const env = () => ({ CLINIC_CONFIG_DIR: dir.path });
  const context = () => {
    const streams = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() };
    return createContext({ streams, env: env() }, parseGlobals({}, env()));
  };
  const own = {
    instance: 'own-instance',
    values: { base_url: 'http://127.0.0.1:2222/api', auth_url: 'http://127.0.0.1:2222', tenant: '1' },
  };
  const config = async () => JSON.parse(await readFile(join(dir.path, 'config.json'), 'utf8'));
  /** A probe that knows which base_url runs which instance, and says what it was asked. */
  const probeOf = (running: Record<string, string>) => {
    const asked: string[] = [];
    const probe = async (url: string) => {
      asked.push(url);
      return running[url];
    };
    return { asked, probe };
  };

  it('writes a profile that does not exist, asking no one', async () => {
    const { asked, probe } = probeOf({});
    expect(await claimProfile(context(), 'sandbox', own, probe)).toEqual({
      profile: 'sandbox',
      written: true,
    });
    expect((await config()).profiles.sandbox).toEqual(own.values);
    expect(asked).toEqual([]);
  });

  it('takes over a profile whose sandbox is no longer running, keeping its other keys', async () => {
    await updateProfile(env(), 'sandbox', (p) => {
      p.base_url = 'http://127.0.0.1:1111/api';
      p.credential_store = 'file';
      p.scopes = 'openid customers:read';
    });
    const { asked, probe } = probeOf({});
    expect(await claimProfile(context(), 'sandbox', own, probe)).toMatchObject({ written: true });
    expect(asked).toEqual(['http://127.0.0.1:1111/api']);
    expect((await config()).profiles.sandbox).toEqual({
      ...own.values,
      credential_store: 'file',
      scopes: 'openid customers:read',
    });
  });

  it('leaves alone a profile of another sandbox still running, byte for byte', async () => {
    await updateProfile(env(), 'sandbox', (p) => {
      p.base_url = 'http://127.0.0.1:1111/api';
      p.tenant = '2';
    });
    await updateProfile(env(), 'sandbox-2', (p) => void (p.output = 'json'));
    const before = await readFile(join(dir.path, 'config.json'), 'utf8');
    const { probe } = probeOf({ 'http://127.0.0.1:1111/api': 'first-instance' });
    const claim = await claimProfile(context(), 'sandbox', own, probe);
    expect(claim).toEqual({
      profile: 'sandbox',
      written: false,
      runningAt: 'http://127.0.0.1:1111/api',
      freeName: 'sandbox-3',
    });
    expect(await readFile(join(dir.path, 'config.json'), 'utf8')).toBe(before);
    if (claim.written) throw new Error('written');
    expect(leftAloneNote(claim, own.values.base_url)).toBe(
      "note: profile 'sandbox' left alone: it points at another sandbox, still running at " +
        'http://127.0.0.1:1111/api; to have a profile for this one, start it with --write-profile sandbox-3, or use ' +
        "CLINIC_BASE_URL=http://127.0.0.1:2222/api with the ready line's token as CLINIC_TOKEN",
    );
  });

  it('writes a profile that already points at this very sandbox (a fixed --port started again)', async () => {
    await updateProfile(env(), 'sandbox', (p) => void (p.base_url = own.values.base_url));
    const { probe } = probeOf({ [own.values.base_url]: own.instance });
    expect(await claimProfile(context(), 'sandbox', own, probe)).toMatchObject({ written: true });
  });

  it('looks again when another start repoints the profile between its look and its write', async () => {
    await updateProfile(env(), 'sandbox', (p) => void (p.base_url = 'http://127.0.0.1:1111/api'));
    const asked: string[] = [];
    const probe = async (url: string) => {
      asked.push(url);
      // Meanwhile another start, whose sandbox is running, took the profile.
      if (asked.length === 1)
        await updateProfile(env(), 'sandbox', (p) => void (p.base_url = 'http://127.0.0.1:3333/api'));
      return url === 'http://127.0.0.1:3333/api' ? 'racing-instance' : undefined;
    };
    expect(await claimProfile(context(), 'sandbox', own, probe)).toMatchObject({
      written: false,
      runningAt: 'http://127.0.0.1:3333/api',
    });
    expect(asked).toEqual(['http://127.0.0.1:1111/api', 'http://127.0.0.1:3333/api']);
    expect((await config()).profiles.sandbox.base_url).toBe('http://127.0.0.1:3333/api');
  });

  it('leaves the stored sign-in where it is when it rewrites the profile', async () => {
    const credentials = join(dir.path, 'credentials.json');
    await writeFile(credentials, '{"sandbox":{"access_token":"t"}}', { mode: 0o600 });
    await updateProfile(env(), 'sandbox', (p) => void (p.credential_store = 'file'));
    await claimProfile(context(), 'sandbox', own, probeOf({}).probe);
    expect(await readFile(credentials, 'utf8')).toBe('{"sandbox":{"access_token":"t"}}');
  });
});

describe('freeProfileName', () => {
  it('is NAME-2, or the next number free, and always a valid profile name', async () => {
    const { checkProfileName, emptyConfig } = await import('../../../src/core/config/config-file.js');
    const data = emptyConfig();
    expect(freeProfileName(data, 'flaky')).toBe('flaky-2');
    data.profiles['flaky-2'] = {};
    expect(freeProfileName(data, 'flaky')).toBe('flaky-3');
    const long = 'x'.repeat(64);
    expect(checkProfileName(freeProfileName(data, long))).toMatch(/^x+-2$/);
  });
});
