// A credential in clear text to this machine goes only to a process of this user: after the sandbox stops (or a
// port-forward to the API ends), another user may listen on its port (here `nobody`, a real server started under uid
// 65534), and would be sent it. CLINIC_TOKEN, a stored sign-in's token, its refresh token and a token piped to login
// are refused before anything is sent (exit 2), on every loopback name and for a wildcard listener too; this user's
// own server is not held up.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  connectingUid,
  loopbackListenerUids,
  requireOwnConnection,
} from '../../../src/core/http/loopback-owner.js';
import { NodeTransport } from '../../../src/core/http/transport.js';
import { UsageError } from '../../../src/core/errors.js';
import { runInProcess } from '../../helpers/in-process.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const dir = useTempDir('clinic-loopback-owner-');
const children: ChildProcess[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A server run by `nobody` on `host` (port 0), counting the requests it gets: its port, and the count so far. */
async function theirServer(host: string) {
  const script = `
    let seen = 0;
    let secrets = 0;
    let bytes = 0;
    const server = require('node:http').createServer((req, res) => {
      seen++;
      if (req.method !== 'GET' || req.headers.authorization) secrets++;
      // No discovery document: the sign-in's documented paths (/oauth/token) are used.
      if (req.url.includes('/.well-known/')) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"id":1}}');
    });
    server.on('connection', (socket) => socket.on('data', (data) => (bytes += data.length)));
    server.listen(0, ${JSON.stringify(host)}, () => console.log(server.address().port));
    process.stdin.on('data', () => console.log('seen ' + seen + ' ' + secrets + ' ' + bytes));`;
  const child = spawn(process.execPath, ['-e', script], { uid: NOBODY, gid: NOBODY });
  children.push(child);
  const lines: string[] = [];
  let waiting: ((line: string) => void) | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) {
      if (waiting) waiting(line);
      else lines.push(line);
    }
  });
  const next = () =>
    new Promise<string>((resolve) => {
      const line = lines.shift();
      if (line !== undefined) return resolve(line);
      waiting = (line) => {
        waiting = undefined;
        resolve(line);
      };
    });
  const port = Number(await next());
  return {
    port,
    seen: async () => {
      child.stdin.write('?\n');
      return Number((await next()).split(' ')[1]);
    },
    /** Requests that carried something secret: an Authorization header, or a body (a POST's form). */
    secrets: async () => {
      child.stdin.write('?\n');
      return Number((await next()).split(' ')[2]);
    },
    /** Bytes received on any connection: a request line, a header, anything at all. */
    bytes: async () => {
      child.stdin.write('?\n');
      return Number((await next()).split(' ')[3]);
    },
  };
}

/** A server of this process's user on 127.0.0.1, answering a record: its port, and the Authorization it was sent. */
async function ourServer() {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"id":1}}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

const clinic = (baseUrl: string, env: Record<string, string> = { CLINIC_TOKEN: 'tok_prod_secret' }) =>
  runInProcess(['customers', 'get', '1', '-o', 'json'], {
    env: {
      CLINIC_CONFIG_DIR: join(dir.path, 'config'),
      CLINIC_BASE_URL: baseUrl,
      CLINIC_TENANT: '1',
      ...env,
    },
  });

describe('CLINIC_TOKEN to a loopback port another user listens on', () => {
  it.skipIf(!asRoot).each([
    ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/api`],
    ['0.0.0.0', (port: number) => `http://localhost:${port}/api`],
    ['::', (port: number) => `http://[::1]:${port}/api`],
    ['::', (port: number) => `http://127.0.0.5:${port}/api`],
  ])('a server of theirs on %s: refused, exit 2, nothing sent', async (host, baseUrl) => {
    const theirs = await theirServer(host);
    const origin = new URL(baseUrl(theirs.port)).origin;
    expect(await loopbackListenerUids(new URL(origin).hostname, theirs.port)).toEqual([NOBODY]);
    const result = await clinic(baseUrl(theirs.port));
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe(
      `error: ${origin} is served by another user's process (uid ${NOBODY}): CLINIC_TOKEN is not sent to it in ` +
        'clear text (a stopped sandbox leaves its port to anyone); start the sandbox again, or check base_url',
    );
    expect(await theirs.seen()).toBe(0);
  });

  it('a server of this user: the token goes, the record is printed', async () => {
    const { port, seen } = await ourServer();
    expect(await loopbackListenerUids('127.0.0.1', port)).toEqual([process.getuid!()]);
    const result = await clinic(`http://127.0.0.1:${port}/api`);
    expect(result).toMatchObject({ code: 0, stdout: '{\n  "id": 1\n}\n' });
    expect(seen).toEqual(['Bearer tok_prod_secret']);
  });

  it.skipIf(!asRoot)(
    "root's listener (docker's port proxy): another user's CLINIC_TOKEN goes to it",
    async () => {
      // The server is root's (this process's); the CLI, in-process, takes itself for uid 1000.
      const { port, seen } = await ourServer();
      const getuid = vi.spyOn(process, 'getuid').mockReturnValue(1000);
      try {
        const result = await clinic(`http://127.0.0.1:${port}/api`);
        expect(result).toMatchObject({ code: 0, stderr: '' });
        expect(seen).toEqual(['Bearer tok_prod_secret']);
      } finally {
        getuid.mockRestore();
      }
    },
  );

  it('nothing listening: the usual connection refused, said as always', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    expect(await loopbackListenerUids('localhost', port)).toEqual([]);
    const result = await clinic(`http://127.0.0.1:${port}/api`);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('connection refused');
  });
});

/** A profile whose sign-in (file store) was made at `origin`: valid for an hour, or expired (a refresh is due). */
async function signedInAt(origin: string, expired = false): Promise<Record<string, string>> {
  const configDir = join(dir.path, `config-${origin.replace(/\W/g, '')}-${expired}`);
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const profile = {
    base_url: `${origin}/api`,
    auth_url: origin,
    client_id: 'clinic-cli',
    credential_store: 'file',
  };
  await writeFile(join(configDir, 'config.json'), JSON.stringify({ profiles: { default: profile } }), {
    mode: 0o600,
  });
  const entry = {
    kind: 'oauth',
    access_token: 'at-prod-1',
    refresh_token: 'rt-prod-1',
    expires_at: new Date(Date.now() + (expired ? -60_000 : 3_600_000)).toISOString(),
    origins: { base_url: origin, auth_url: origin },
  };
  await writeFile(join(configDir, 'credentials.json'), JSON.stringify({ default: entry }), { mode: 0o600 });
  return { CLINIC_CONFIG_DIR: configDir, CLINIC_TENANT: '1' };
}

describe.skipIf(!asRoot)("every credential, not CLINIC_TOKEN only, to another user's loopback port", () => {
  const refusal = (origin: string, what: string, setting = 'base_url') =>
    `error: ${origin} is served by another user's process (uid ${NOBODY}): ${what} is not sent to it in clear ` +
    `text (a stopped sandbox leaves its port to anyone); start the sandbox again, or check ${setting}`;

  it('a stored sign-in (an ended port-forward to the API): refused, exit 2, no token sent', async () => {
    const theirs = await theirServer('127.0.0.1');
    const origin = `http://127.0.0.1:${theirs.port}`;
    const result = await runInProcess(['customers', 'get', '1'], { env: await signedInAt(origin) });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe(refusal(origin, "the sign-in's token"));
    expect(await theirs.seen()).toBe(0);
  });

  it('a sign-in due for a refresh: the refresh token is not sent either (exit 2)', async () => {
    const theirs = await theirServer('127.0.0.1');
    const origin = `http://127.0.0.1:${theirs.port}`;
    const result = await runInProcess(['customers', 'get', '1'], { env: await signedInAt(origin, true) });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    // Refused at the first connection, discovery's: the connection itself is another user's.
    expect(result.stderr.split('\n')[0]).toBe(
      `error: ${origin} is served by another user's process (uid ${NOBODY}): nothing is sent to it in clear text ` +
        '(a stopped sandbox leaves its port to anyone); start the sandbox again, or check base_url and auth_url',
    );
    expect(await theirs.bytes(), 'not even discovery is asked for').toBe(0);
  });

  it('login --with-token: the token piped in is not tried there (exit 2)', async () => {
    const theirs = await theirServer('::');
    const origin = `http://localhost:${theirs.port}`;
    const result = await runInProcess(['login', '--with-token', '--insecure-storage'], {
      stdin: 'tok_prod_secret\n',
      env: { CLINIC_CONFIG_DIR: join(dir.path, 'config-login'), CLINIC_BASE_URL: `${origin}/api` },
    });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe(refusal(origin, "the sign-in's token"));
    expect(await theirs.seen()).toBe(0);
  });
});

describe.skipIf(!asRoot)('the connection itself, checked before anything is written on it', () => {
  // The listener check runs before the connection: a listener that appears after it, or that a table busy with
  // listeners coming and going hid from its reads, would still be sent the token. The transport checks the far end of
  // every new plain-http connection to this machine; here it is asked directly, the early check skipped.
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::', '127.0.0.1'],
    ['::', '[::1]'],
    ['::', 'localhost'],
  ])('a server of theirs on %s, reached as %s: refused, not a byte written', async (host, name) => {
    const theirs = await theirServer(host);
    const origin = `http://${name}:${theirs.port}`;
    const transport = new NodeTransport();
    try {
      const sent = transport.request({
        origin,
        path: '/api/v1/customers/1',
        method: 'GET',
        headers: { authorization: 'Bearer tok_prod_secret' },
      });
      await expect(sent).rejects.toThrow(UsageError);
      await expect(sent).rejects.toThrow(
        /is served by another user's process \(uid 65534\): nothing is sent/,
      );
    } finally {
      await transport.close();
    }
    expect(await theirs.bytes()).toBe(0);
  });

  it('a server of this user: the request goes as always, over one kept-alive connection', async () => {
    const ours = await ourServer();
    const transport = new NodeTransport();
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await transport.request({
          origin: `http://127.0.0.1:${ours.port}`,
          path: '/x',
          method: 'GET',
          headers: { authorization: 'Bearer mine' },
        });
        expect(answer.statusCode).toBe(200);
        answer.body.resume();
        await new Promise((resolve) => answer.body.once('end', resolve));
      }
    } finally {
      await transport.close();
    }
    expect(ours.seen).toEqual(['Bearer mine', 'Bearer mine', 'Bearer mine']);
  });
});

describe('a connection made, judged by the listeners of the address and port it reached', () => {
  const HEAD = '  sl  local_address rem_address   st';
  const row = (address: string, uid: number) =>
    `   0: ${address}:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000 ${uid} 0 1 1`;
  const tables =
    (tcp: string[], tcp6: string[] = []) =>
    async (file: string) =>
      [HEAD, ...(file.endsWith('6') ? tcp6 : tcp)].join('\n');
  const mine = process.getuid?.() ?? 0;
  const origin = 'http://127.0.0.1:8080';
  const at = (remoteAddress: string) => ({ remoteAddress, remotePort: 8080 });

  it.skipIf(process.platform !== 'linux')("this user's listener, or root's: let be", async () => {
    await requireOwnConnection(at('127.0.0.1'), origin, tables([row('0100007F', mine)]));
    await requireOwnConnection(at('::ffff:127.0.0.1'), origin, tables([], [row('0'.repeat(32), 0)]));
  });

  it.skipIf(process.platform !== 'linux')("another user's listener: refused, exit 2", async () => {
    const refused = requireOwnConnection(at('::1'), origin, tables([], [row('0'.repeat(32), 65534)]));
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow("served by another user's process (uid 65534): nothing is sent");
  });

  it.skipIf(process.platform !== 'linux')(
    'no listener at all (gone, or hidden from the reads): refused, not sent where its owner cannot be told',
    async () => {
      await expect(requireOwnConnection(at('127.0.0.1'), origin, tables([]))).rejects.toThrow(
        'cannot tell whose process answers on http://127.0.0.1:8080 (no listener on that port in /proc/net/tcp): ' +
          'nothing was sent to it',
      );
      // Where there is no /proc/net (another system), nothing can be told and nothing is refused.
      await requireOwnConnection(at('127.0.0.1'), origin, async () => undefined);
    },
  );
});

describe('which listeners a loopback address reaches (tables as /proc/net writes them, any user)', () => {
  // Port 0x1F90 = 8080. Addresses as a little-endian machine writes them (these tests run on x64 and arm64).
  const row = (address: string, uid: number, state = '0A') =>
    `   0: ${address}:1F90 00000000:0000 ${state} 00000000:00000000 00:00000000 00000000 ${uid} 0 1 1`;
  const HEAD =
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
  const tables =
    (tcp: string[], tcp6: string[] = []) =>
    async (file: string) =>
      [HEAD, ...(file.endsWith('6') ? tcp6 : tcp)].join('\n');
  const ON_127_0_0_1 = '0100007F';
  const ANY = '00000000';
  const V6_LOOPBACK = '00000000000000000000000001000000';
  const V6_ANY = '0'.repeat(32);
  const MAPPED_127_0_0_1 = '0000000000000000FFFF00000100007F';

  it.skipIf(process.platform !== 'linux').each([
    ['127.0.0.1', [row(ON_127_0_0_1, 1001)], [], [1001]],
    ['localhost', [row(ON_127_0_0_1, 1001)], [], [1001]],
    // Bound to 127.0.0.1 only: 127.0.0.2 and ::1 do not reach it.
    ['127.0.0.2', [row(ON_127_0_0_1, 1001)], [], []],
    ['[::1]', [row(ON_127_0_0_1, 1001)], [], []],
    ['127.0.0.2', [row(ANY, 1001)], [], [1001]],
    ['127.0.0.9', [], [row(V6_ANY, 1002)], [1002]],
    ['[::1]', [], [row(V6_LOOPBACK, 1003)], [1003]],
    ['localhost', [], [row(V6_LOOPBACK, 1003)], [1003]],
    ['127.0.0.1', [], [row(MAPPED_127_0_0_1, 1004)], [1004]],
    // Not listening (an established connection on the port), or another port.
    ['127.0.0.1', [row(ON_127_0_0_1, 1001, '01'), row(ON_127_0_0_1, 1005).replace(':1F90', ':1F91')], [], []],
  ])('%s, with %j and %j: %j', async (host, tcp, tcp6, uids) => {
    expect(await loopbackListenerUids(host, 8080, tables(tcp, tcp6))).toEqual(uids);
  });

  // Reading an empty IPv6 table walks the kernel's whole connection table (over a millisecond of every run against the
  // sandbox): read only when the address may be reached over IPv6, or no IPv4 listener settled whose the port is (no
  // two users' listeners can share a port whose addresses overlap).
  it.skipIf(process.platform !== 'linux').each([
    ['127.0.0.1', [row(ON_127_0_0_1, 1001)], [row(V6_ANY, 1002)], [1001], ['/proc/net/tcp']],
    [
      '127.0.0.2',
      [row(ON_127_0_0_1, 1001)],
      [row(V6_ANY, 1002)],
      [1002],
      ['/proc/net/tcp', '/proc/net/tcp6'],
    ],
    ['[::1]', [row(ANY, 1001)], [row(V6_ANY, 1002)], [1002], ['/proc/net/tcp6']],
    [
      'localhost',
      [row(ON_127_0_0_1, 1001)],
      [row(V6_LOOPBACK, 1003)],
      [1001, 1003],
      ['/proc/net/tcp', '/proc/net/tcp6'],
    ],
  ])('%s, with %j and %j: %j, reading %j', async (host, tcp, tcp6, uids, read) => {
    const files: string[] = [];
    const reader = tables(tcp, tcp6);
    const counted = async (file: '/proc/net/tcp' | '/proc/net/tcp6') => (files.push(file), reader(file));
    expect(await loopbackListenerUids(host, 8080, counted)).toEqual(uids);
    expect(files).toEqual(read);
  });

  it.skipIf(process.platform !== 'linux')(
    'the real tables: a listener of this user on 127.0.0.1 is found',
    async () => {
      const ours = await ourServer();
      expect(await loopbackListenerUids('127.0.0.1', ours.port)).toEqual([process.getuid!()]);
    },
  );
});

describe('whose process connected to a listener of this one on 127.0.0.1 (connectingUid)', () => {
  // The connecting socket's own line: its local end 127.0.0.1:0xC350 (50000), its remote end the listener's, 8080.
  const HEAD = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid';
  const line = (local: string, remote: string, uid: number) =>
    `   7: ${local} ${remote} 01 00000000:00000000 00:00000000 00000000 ${uid} 0 1 1`;
  const table = [
    HEAD,
    line('0100007F:1F90', '00000000:0000', 0), // the listener
    line('0100007F:1F90', '0100007F:C350', 0), // the listener's end of the connection
    line('0100007F:C350', '0100007F:1F90', 65534), // the connecting socket: its owner
  ].join('\n');

  it.skipIf(process.platform !== 'linux')(
    "is the owner of the line whose local end is the connection's far one",
    () => {
      expect(connectingUid({ address: '127.0.0.1', port: 50000 }, 8080, () => table)).toBe(65534);
      expect(connectingUid({ address: '::ffff:127.0.0.1', port: 50000 }, 8080, () => table)).toBe(65534);
    },
  );

  it('is untold where there is no such line, no table, or no loopback address', () => {
    expect(connectingUid({ address: '127.0.0.1', port: 50001 }, 8080, () => table)).toBeUndefined();
    expect(connectingUid({ address: '127.0.0.1', port: 50000 }, 8080, () => undefined)).toBeUndefined();
    expect(connectingUid({ address: '10.0.0.1', port: 50000 }, 8080, () => table)).toBeUndefined();
    expect(connectingUid({ address: undefined, port: undefined }, 8080, () => table)).toBeUndefined();
  });
});
