// The Pusher protocol v7 endpoint frame by frame, with a bare WebSocket: handshake, ping, subscribe, refusals, and
// frames no client should send.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSandbox } from '../../src/sandbox/index.js';
import { call, sandboxForFile } from './client.js';
import { RawSocket, sleep } from './realtime-client.js';

let sandbox: RunningSandbox;
const sockets: RawSocket[] = [];
sandboxForFile((running) => {
  sandbox = running;
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

async function open(path?: string): Promise<RawSocket> {
  const socket = await RawSocket.open(sandbox, path);
  sockets.push(socket);
  return socket;
}

async function signedSubscribe(socket: RawSocket, tenant = 1) {
  const socketId = await socket.socketId();
  const channel = `private-chat-log.${tenant}`;
  const auth = await call(sandbox, '/broadcasting/auth', {
    tenant,
    json: { socket_id: socketId, channel_name: channel },
  });
  return socket.ask(
    { event: 'pusher:subscribe', data: { channel, auth: auth.body.auth } },
    'pusher_internal:subscription_succeeded',
  );
}

describe('handshake', () => {
  it('sends connection_established with data as a JSON string holding socket_id and activity_timeout', async () => {
    const socket = await open();
    const established = await socket.next('pusher:connection_established');
    expect(typeof established.data).toBe('string');
    expect(JSON.parse(established.data)).toEqual({
      socket_id: expect.stringMatching(/^\d+\.\d+$/),
      activity_timeout: 120,
    });
    expect(sandbox.realtimeClients()).toContainEqual({ socketId: await socket.socketId(), channels: [] });
  });

  it('gives every connection its own socket id', async () => {
    const ids = await Promise.all([open(), open(), open()].map(async (socket) => (await socket).socketId()));
    expect(new Set(ids).size).toBe(3);
  });

  it('answers an unknown app key with pusher:error 4001, then closes with 4001', async () => {
    const socket = await open('/app/wrong-key?protocol=7');
    const error = await socket.next('pusher:error');
    expect(error.data).toEqual({ code: 4001, message: 'Application does not exist' });
    expect((await socket.closed).code).toBe(4001);
  });

  it('refuses another protocol version with 4007', async () => {
    const socket = await open(`/app/${sandbox.info.realtime.key}?protocol=5`);
    expect((await socket.next('pusher:error')).data.code).toBe(4007);
    expect((await socket.closed).code).toBe(4007);
  });

  it('answers 404 to an upgrade elsewhere, and the REST API keeps answering', async () => {
    await expect(RawSocket.open(sandbox, '/api/v1/account')).rejects.toThrow(/404/);
    await expect(RawSocket.open(sandbox, '/app')).rejects.toThrow(/404/);
    expect((await call(sandbox, '/v1/account')).status).toBe(200);
  });

  it('logs the upgrade request like any other', async () => {
    const before = sandbox.requests.length;
    await open();
    expect(sandbox.requests.slice(before)).toContainEqual(
      expect.objectContaining({
        method: 'GET',
        path: `/app/${sandbox.info.realtime.key}`,
        query: 'protocol=7',
      }),
    );
  });

  it('answers a plain GET on /app with 404 JSON', async () => {
    const response = await fetch(`http://127.0.0.1:${sandbox.port}/app/${sandbox.info.realtime.key}`);
    expect(response.status).toBe(404);
  });
});

describe('messages', () => {
  it('answers pusher:ping with pusher:pong', async () => {
    const socket = await open();
    expect(await socket.ask({ event: 'pusher:ping', data: {} }, 'pusher:pong')).toEqual({
      event: 'pusher:pong',
      data: {},
    });
  });

  it('subscribes with a valid signature, and unsubscribes', async () => {
    const socket = await open();
    await signedSubscribe(socket);
    const socketId = await socket.socketId();
    expect(sandbox.realtimeClients()).toContainEqual({ socketId, channels: ['private-chat-log.1'] });
    socket.send({ event: 'pusher:unsubscribe', data: { channel: 'private-chat-log.1' } });
    await socket.ask({ event: 'pusher:ping', data: {} }, 'pusher:pong');
    expect(sandbox.realtimeClients()).toContainEqual({ socketId, channels: [] });
    const from = socket.frames.length;
    sandbox.postMessage({ tenantId: 1, conversationId: 2, body: 'not for you' });
    await sleep(100);
    expect(socket.frames.slice(from)).toEqual([]);
  });

  it('answers a bad, foreign or missing signature with pusher:error 4009 and no subscription', async () => {
    const socket = await open();
    const socketId = await socket.socketId();
    const otherSocketsAuth = await call(sandbox, '/broadcasting/auth', {
      json: { socket_id: '1.1', channel_name: 'private-chat-log.1' },
    });
    for (const auth of [
      'sandbox-key:0000',
      `sandbox-key:${'0'.repeat(64)}`,
      otherSocketsAuth.body.auth,
      `other-key:${String(otherSocketsAuth.body.auth).split(':')[1]}`,
      undefined,
      42,
    ]) {
      const error = await socket.ask(
        { event: 'pusher:subscribe', data: { channel: 'private-chat-log.1', auth } },
        'pusher:error',
      );
      expect(error.data).toEqual({ code: 4009, message: 'Connection is unauthorized' });
    }
    expect(sandbox.realtimeClients()).toContainEqual({ socketId, channels: [] });
    expect(socket.frames.some((frame) => frame.event === 'pusher_internal:subscription_succeeded')).toBe(
      false,
    );
  });

  it.each(['chat-log.1', 'private-other', 'presence-chat-log.1', 'private-encrypted-chat-log.1'])(
    'refuses the channel %s with pusher:error 4009',
    async (channel) => {
      const socket = await open();
      const error = await socket.ask({ event: 'pusher:subscribe', data: { channel } }, 'pusher:error');
      expect(error.data.code).toBe(4009);
      expect(error.data.message).toContain('only private-chat-log.{tenantId}');
    },
  );

  it('survives malformed frames, answering pusher:error with code null, and keeps working', async () => {
    const socket = await open();
    await socket.socketId();
    const malformed = ['not json', '[]', '"text"', 'null', '{"data":{}}', '{"event":42}', '{"event":"x"'];
    for (const frame of malformed) {
      const error = await socket.ask(frame, 'pusher:error');
      expect(error.data).toEqual({ code: null, message: 'Invalid message format.' });
    }
    socket.sendBinary(new Uint8Array([0, 1, 2]));
    expect((await socket.next('pusher:error', socket.frames.length)).data.code).toBeNull();
    for (const frame of [
      { event: 'pusher:subscribe' },
      { event: 'pusher:subscribe', data: 'private-chat-log.1' },
    ]) {
      const error = await socket.ask(frame, 'pusher:error');
      expect(error.data).toEqual({ code: null, message: 'The subscribe message needs a channel.' });
    }
    const quietFrom = socket.frames.length;
    for (const frame of [
      { event: 'pusher:unsubscribe', data: { channel: 7 } },
      { event: 'pusher:unsubscribe', data: { channel: 'never-subscribed' } },
      { event: 'pusher:pong', data: {} },
    ]) {
      socket.send(frame);
    }
    await socket.ask({ event: 'pusher:ping', data: {} }, 'pusher:pong');
    expect(socket.frames.slice(quietFrom).map((frame) => frame.event)).toEqual(['pusher:pong']);
    expect((await socket.ask({ event: 'client-typing', data: {} }, 'pusher:error')).data.message).toBe(
      'Client events are not enabled.',
    );
    expect((await socket.ask({ event: 'pusher:signin', data: {} }, 'pusher:error')).data.message).toBe(
      'Unsupported event.',
    );
    await signedSubscribe(socket);
    expect((await call(sandbox, '/v1/account')).status).toBe(200);
  });

  it('closes a socket that sends an oversized frame, and only that one', async () => {
    const bystander = await open();
    await signedSubscribe(bystander);
    const socket = await open();
    socket.send('x'.repeat(100 * 1024));
    expect((await socket.closed).code).toBe(1009);
    expect(await bystander.ask({ event: 'pusher:ping', data: {} }, 'pusher:pong')).toBeDefined();
  });

  it('survives a garbled upgrade request', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`http://127.0.0.1:${sandbox.port}/app/${sandbox.info.realtime.key}`, {
        headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13' },
      });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('upgrade', () => reject(new Error('upgraded without a key')));
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
    expect((await call(sandbox, '/v1/account')).status).toBe(200);
  });
});
