// Realtime outages as pusher-js meets them: a dropped connection, a blocked endpoint, the ws-drop fault, and a
// sandbox that closes under its clients.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxForFile } from './client.js';
import {
  connectPusher,
  disconnectAll,
  nextEvent,
  recordEvents,
  sleep,
  subscribed,
  waitUntil,
} from './realtime-client.js';

const CREATED = 'App\\Events\\ChatLogCreated';

let sandbox: RunningSandbox;
sandboxForFile((running) => {
  sandbox = running;
});
afterEach(() => {
  disconnectAll();
  sandbox.setFaults(undefined);
});

describe('dropRealtime', () => {
  it('cuts every connection; pusher-js reconnects with a new socket and subscribes again', async () => {
    const pusher = connectPusher(sandbox);
    const channel = await subscribed(pusher, 'private-chat-log.1');
    const received = recordEvents(channel);
    const firstSocket = pusher.connection.socket_id;
    const authCalls = () => sandbox.requests.filter((r) => r.path === '/api/broadcasting/auth').length;
    const authBefore = authCalls();

    const lost = nextEvent(pusher.connection, 'error');
    const resubscribed = nextEvent(channel, 'pusher:subscription_succeeded', 4000);
    expect(sandbox.dropRealtime()).toBe(1);
    expect(await lost).toEqual({ type: 'PusherError', data: { code: 1006 } });
    // Missed: sent while nobody is connected.
    sandbox.postMessage({ tenantId: 1, conversationId: 3, body: 'while away' });
    await resubscribed;
    expect(pusher.connection.socket_id).not.toBe(firstSocket);
    expect(authCalls()).toBe(authBefore + 1);
    expect(sandbox.realtimeClients()).toEqual([
      { socketId: pusher.connection.socket_id, channels: ['private-chat-log.1'] },
    ]);

    const after = sandbox.postMessage({ tenantId: 1, conversationId: 3, body: 'back again' });
    await nextEvent(channel, CREATED);
    expect(received.map(({ data }) => data.id)).toEqual([after.id]);
  });

  it('returns 0 when nobody is connected', async () => {
    await waitUntil(() => sandbox.realtimeClients().length === 0);
    expect(sandbox.dropRealtime()).toBe(0);
  });
});

describe('blockRealtime', () => {
  it('keeps pusher-js out for that long, then lets it back in', async () => {
    const pusher = connectPusher(sandbox);
    const channel = await subscribed(pusher, 'private-chat-log.1');
    const started = performance.now();
    const resubscribed = nextEvent(channel, 'pusher:subscription_succeeded', 6000);
    sandbox.blockRealtime(1500);
    expect(sandbox.realtimeClients()).toEqual([]);
    await sleep(1200);
    // Tried (about once a second) and cut at once each time.
    expect(pusher.connection.state).toBe('connecting');
    expect(sandbox.realtimeClients()).toEqual([]);
    await resubscribed;
    const outage = performance.now() - started;
    expect(outage).toBeGreaterThanOrEqual(1500);
    expect(outage).toBeLessThan(5000);
    expect(pusher.connection.state).toBe('connected');
  });
});

describe('the ws-drop fault', () => {
  it('drops every connection within a second under ws-drop=1, and stops when cleared', async () => {
    const pusher = connectPusher(sandbox);
    const channel = await subscribed(pusher, 'private-chat-log.1');
    const resubscribed = nextEvent(channel, 'pusher:subscription_succeeded', 4000);
    sandbox.setFaults('ws-drop=1');
    expect(await nextEvent(pusher.connection, 'error', 2500)).toMatchObject({ data: { code: 1006 } });
    sandbox.setFaults(undefined);
    await resubscribed;
    const socketId = pusher.connection.socket_id;
    await sleep(1300);
    expect(pusher.connection.socket_id).toBe(socketId);
    expect(pusher.connection.state).toBe('connected');
  });

  it('leaves the REST API alone', async () => {
    sandbox.setFaults('ws-drop=1');
    const response = await fetch(`${sandbox.info.base_url}/v1/account`, {
      headers: { authorization: `Bearer ${sandbox.info.token}` },
    });
    expect(response.status).toBe(200);
  });
});

describe('close()', () => {
  it('ends connections, timers and the port, even with chatter and clients running', async () => {
    // Earlier tests' clients must be gone first, or their sockets would blur the count.
    await waitUntil(() => sandbox.realtimeClients().length === 0);
    await sleep(100);
    const resourcesBefore = activeResources();
    const running = await startSandbox({ port: 0, chatter: 50, faults: 'ws-drop=0.01' });
    let heard = 0;
    running.onChatEvent(() => heard++);
    const pusher = connectPusher(running);
    await subscribed(pusher, 'private-chat-log.1');
    await waitUntil(() => heard > 0, 3000, 'chatter');
    const left = nextEvent(pusher.connection, 'state_change');
    await running.close();
    const heardAtClose = heard;
    expect((await left).previous).toBe('connected');
    pusher.disconnect();
    expect(running.realtimeClients()).toEqual([]);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(running.port, '127.0.0.1');
      socket.on('connect', () => resolve(socket.destroy() && false));
      socket.on('error', () => resolve(true));
    });
    expect(refused).toBe(true);
    await sleep(200);
    // The chatter's timer (unref'd, so not counted below) is stopped too, and so are the assistant's replies.
    expect(heard).toBe(heardAtClose);
    expect(activeResources()).toEqual(resourcesBefore);
  });
});

/** Handles and timers keeping the process alive, counted by kind. */
function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}
