// Realtime without TLS only to a loopback host: `chat tail` and `doctor` refuse realtime.tls=false towards anything
// else, however it is set (profile, CLINIC_REALTIME_TLS/HOST, hosted cluster), before any request or connection.
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lines, runCli } from '../../helpers/cli.js';
import { type FakeApi, startFakeApi } from '../../helpers/fake-api.js';

/** An address of this machine that is not loopback, where a listener counts connection attempts. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((info) => info && info.family === 'IPv4' && !info.internal)?.address;

let api: FakeApi;
let configDir: string;
let listener: Server | undefined;
let listenerPort = 9;
let connections = 0;
/** The non-loopback host the settings name: a listener of ours when this machine has such an address. */
const host = lanAddress ?? 'realtime.invalid';

beforeAll(async () => {
  api = await startFakeApi();
  configDir = await api.configDir({ realtime: true }); // profile fake: realtime on 127.0.0.1, tls false
  if (lanAddress) {
    const server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    listener = server;
    await new Promise<void>((resolve) => server.listen(0, lanAddress, resolve));
    listenerPort = (server.address() as { port: number }).port;
  }
});
afterAll(async () => {
  await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
  await api.close();
});

const env = { CLINIC_TOKEN: 'token-for-the-fake' };
const clinic = (args: string[], extra: Record<string, string> = {}) =>
  runCli(configDir, args, { env: { ...env, ...extra } });

async function set(key: string, value: string | undefined) {
  const result = await clinic(value === undefined ? ['config', 'unset', key] : ['config', 'set', key, value]);
  expect(result.code, result.stderr).toBe(0);
}

beforeEach(async () => {
  await set('realtime.host', '127.0.0.1');
  await set('realtime.port', String(api.port));
  await set('realtime.tls', 'false');
  await set('realtime.cluster', undefined);
  api.requests.length = 0;
  connections = 0;
});

/** Exit 2, one error line naming the host and the TLS setting; nothing sent to the API, nothing connected. */
function expectRefused(result: { code: number | null; stderr: string }, towards: string, tlsFrom: RegExp) {
  expect(result.code, result.stderr).toBe(2);
  const errors = lines(result.stderr).filter((line) => line.startsWith('error:'));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain(`'${towards}'`);
  expect(errors[0]).toMatch(tlsFrom);
  expect(api.requests).toEqual([]);
  expect(connections).toBe(0);
}

const tail = ['chat', 'tail', '--timeout', '3'];

describe('chat tail', () => {
  it('a non-loopback realtime.host in the profile with tls false: exit 2', async () => {
    await set('realtime.host', host);
    await set('realtime.port', String(listenerPort));
    expectRefused(await clinic(tail), host, /realtime\.tls=false \(profile fake\)/);
  });

  it('CLINIC_REALTIME_HOST towards it (profile tls false): exit 2', async () => {
    await set('realtime.port', String(listenerPort));
    expectRefused(await clinic(tail, { CLINIC_REALTIME_HOST: host }), host, /realtime\.tls=false/);
  });

  it('CLINIC_REALTIME_TLS=false over a profile with TLS on: exit 2, naming the variable', async () => {
    await set('realtime.host', host);
    await set('realtime.port', String(listenerPort));
    await set('realtime.tls', 'true');
    expectRefused(await clinic(tail, { CLINIC_REALTIME_TLS: 'false' }), host, /CLINIC_REALTIME_TLS=false/);
  });

  it('hosted Pusher (a cluster, no host) with tls false: exit 2, naming the cluster host', async () => {
    await set('realtime.host', undefined);
    await set('realtime.cluster', 'eu');
    expectRefused(await clinic(tail), 'ws-eu.pusher.com', /realtime\.tls=false/);
    expectRefused(
      await clinic(tail, { CLINIC_REALTIME_CLUSTER: 'ap2', CLINIC_REALTIME_HOST: '' }),
      'ws-ap2.pusher.com',
      /realtime\.tls=false/,
    );
  });

  it('look-alikes of loopback are not loopback', async () => {
    for (const name of ['127.0.0.1.example.com', 'localhost.example.com', '0.0.0.0']) {
      expectRefused(await clinic(tail, { CLINIC_REALTIME_HOST: name }), name, /realtime\.tls=false/);
    }
  });
});

describe('doctor', () => {
  it('the realtime check fails with the reason and nothing connects to the host', async () => {
    await set('realtime.host', host);
    await set('realtime.port', String(listenerPort));
    const result = await clinic(['doctor', '-o', 'json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    const realtime = report.checks.find((check: { name: string }) => check.name === 'realtime');
    expect(realtime.status).toBe('fail');
    expect(realtime.detail).toContain(`'${host}'`);
    expect(realtime.detail).toContain('clear text');
    expect(connections).toBe(0);
    expect(api.requests.map((r) => r.path)).not.toContain('/api/broadcasting/auth');
  });
});
