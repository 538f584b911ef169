// Chat events through the real pusher-js client: subscription and its refusals, the three event payloads, tenant
// isolation, generated chatter and assistant replies.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ASSISTANT_SENDER_ID } from '../../src/sandbox/data/chat-types.js';
import { type ChatEvent, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { call, upload, sandboxForFile } from './client.js';
import { manualClock } from '../helpers/sandbox-clock.js';
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
const DELETED = 'App\\Events\\ChatLogDeleted';
const READ = 'App\\Events\\ConversationRead';
const PAYLOAD_FIELDS = [
  'body',
  'conversation_id',
  'created_at',
  'id',
  'media_type',
  'read_at',
  'sender_id',
  'sender_type',
  'status',
  'tenant_id',
  'updated_at',
];
const OFFSET_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;

let sandbox: RunningSandbox;
sandboxForFile((running) => {
  sandbox = running;
});
afterEach(async () => {
  disconnectAll();
  sandbox.setChatter(0);
  // Back to the seeded state: the assistant on in conversation 1 only.
  await call(sandbox, '/v1/conversations/2/agent/disable', { method: 'POST' });
});

describe('subscribing with pusher-js', () => {
  it('connects and subscribes to private-chat-log.{tenant}', async () => {
    const pusher = connectPusher(sandbox);
    await subscribed(pusher, 'private-chat-log.1');
    expect(pusher.connection.state).toBe('connected');
    expect(sandbox.realtimeClients()).toContainEqual({
      socketId: pusher.connection.socket_id,
      channels: ['private-chat-log.1'],
    });
  });

  it("reports 403 as a subscription error for another tenant's channel", async () => {
    const pusher = connectPusher(sandbox, { tenant: 1 });
    const error = await nextEvent(pusher.subscribe('private-chat-log.2'), 'pusher:subscription_error');
    expect(error).toMatchObject({ type: 'AuthError', status: 403 });
  });

  it('reports 403 for a user outside the tenant, 401 without a token', async () => {
    const salesperson = sandbox.issueToken({ userId: sandbox.fixtures.salespersonUserId });
    const outsider = connectPusher(sandbox, { token: salesperson, tenant: 2 });
    expect(
      await nextEvent(outsider.subscribe('private-chat-log.2'), 'pusher:subscription_error'),
    ).toMatchObject({
      status: 403,
    });
    const anonymous = connectPusher(sandbox, { token: null });
    expect(
      await nextEvent(anonymous.subscribe('private-chat-log.1'), 'pusher:subscription_error'),
    ).toMatchObject({
      type: 'AuthError',
      status: 401,
    });
  });

  it('reports a bad signature as a connection error 4009', async () => {
    const pusher = connectPusher(sandbox, {
      overrides: {
        channelAuthorization: {
          customHandler: (_params, done) => done(null, { auth: 'sandbox-key:forged' }),
        },
      },
    });
    const channel = pusher.subscribe('private-chat-log.1');
    const error = await nextEvent(pusher.connection, 'error');
    expect(error).toEqual({
      type: 'PusherError',
      data: { code: 4009, message: 'Connection is unauthorized' },
    });
    expect(channel.subscribed).toBe(false);
    expect(pusher.connection.state).toBe('connected');
  });
});

describe('events', () => {
  it('delivers ChatLogCreated for a voice upload through REST, equal to the stored message', async () => {
    const pusher = connectPusher(sandbox);
    const channel = await subscribed(pusher, 'private-chat-log.1');
    const created = nextEvent(channel, CREATED);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(64)], { type: 'audio/ogg' }), 'note.ogg');
    const result = await upload(sandbox, '/v1/conversations/2/messages/voice', form);
    expect(result.status).toBe(201);
    const payload = await created;
    expect(Object.keys(payload).sort()).toEqual(PAYLOAD_FIELDS);
    expect(payload).toMatchObject({
      id: Number(result.body.data.message_id),
      tenant_id: 1,
      conversation_id: 2,
      sender_type: 'user',
      sender_id: 1,
      media_type: 'audio',
      status: 'queued',
      read_at: null,
      created_at: expect.stringMatching(OFFSET_TIME),
    });
    const stored = await call(sandbox, `/v1/conversations/2/messages/${payload.id}`);
    expect(stored.body.data).toEqual(payload);
  });

  it('delivers ChatLogCreated for postMessage with the documented payload', async () => {
    const pusher = connectPusher(sandbox);
    const channel = await subscribed(pusher, 'private-chat-log.1');
    const created = nextEvent(channel, CREATED);
    const log = sandbox.postMessage({ tenantId: 1, conversationId: 3, body: 'Can I bring my dog?' });
    expect(await created).toEqual({
      id: log.id,
      tenant_id: 1,
      conversation_id: 3,
      sender_type: 'customer',
      sender_id: log.sender_id,
      body: 'Can I bring my dog?',
      media_type: null,
      status: 'received',
      read_at: null,
      created_at: log.created_at,
      updated_at: log.created_at,
    });
    expect(typeof log.sender_id).toBe('number');
    const staff = nextEvent(channel, CREATED);
    sandbox.postMessage({ tenantId: 1, conversationId: 3, body: 'Of course.', senderType: 'user' });
    expect(await staff).toMatchObject({ sender_type: 'user', sender_id: 1, status: 'sent' });
  });

  it('delivers ChatLogDeleted and ConversationRead with their payloads', async () => {
    const pusher = connectPusher(sandbox);
    const channel = await subscribed(pusher, 'private-chat-log.1');
    const log = sandbox.postMessage({ tenantId: 1, conversationId: 3, body: 'Oops, wrong chat' });
    const deleted = nextEvent(channel, DELETED);
    expect(sandbox.deleteMessage(3, log.id, 'Dana Admin')).toBe(true);
    expect(await deleted).toEqual({ chatLogId: log.id, conversationId: 3, deletedByUserName: 'Dana Admin' });
    const bySystem = nextEvent(channel, DELETED);
    sandbox.deleteMessage(3, sandbox.fixtures.tenants[1]?.messages[3]?.[0] ?? 0);
    expect((await bySystem).deletedByUserName).toBeNull();
    expect(sandbox.deleteMessage(3, log.id)).toBe(false);

    const read = nextEvent(channel, READ);
    sandbox.markRead(1, 3);
    expect(await read).toEqual({ conversation_id: 3 });
    expect(() => sandbox.markRead(2, 3)).toThrow(/No conversation 3 in tenant 2/);
  });

  it("sends each event only to the subscribers of that tenant's channel", async () => {
    const first = connectPusher(sandbox, { tenant: 1 });
    const second = connectPusher(sandbox, { tenant: 2 });
    const unsubscribed = connectPusher(sandbox, { tenant: 1 });
    const inFirst = recordEvents(await subscribed(first, 'private-chat-log.1'));
    const inSecond = recordEvents(await subscribed(second, 'private-chat-log.2'));
    const idle = recordEvents(unsubscribed.subscribe('private-chat-log.1'));
    unsubscribed.unsubscribe('private-chat-log.1');
    const one = sandbox.postMessage({ tenantId: 1, conversationId: 3, body: 'one' });
    const two = sandbox.postMessage({ tenantId: 2, conversationId: 5, body: 'two' });
    sandbox.markRead(2, 5);
    await waitUntil(() => inFirst.length === 1 && inSecond.length === 2);
    await sleep(100);
    expect(inFirst.map(({ event, data }) => [event, data.id])).toEqual([[CREATED, one.id]]);
    expect(inSecond.map(({ event, data }) => [event, data.id ?? data.conversation_id])).toEqual([
      [CREATED, two.id],
      [READ, 5],
    ]);
    expect(idle).toEqual([]);
  });

  it('refuses postMessage to a conversation of another tenant', () => {
    expect(() => sandbox.postMessage({ tenantId: 2, conversationId: 1, body: 'x' })).toThrow(
      'No conversation 1 in tenant 2.',
    );
  });
});

describe('chatter', () => {
  it('generates about N patient messages per second over the conversations of tenants 1 and 2', async () => {
    const heard: ChatEvent[] = [];
    const stop = sandbox.onChatEvent((event) => heard.push(event));
    const pusher = connectPusher(sandbox);
    const inTenant1 = recordEvents(await subscribed(pusher, 'private-chat-log.1'));
    const started = performance.now();
    sandbox.setChatter(20);
    await sleep(1000);
    sandbox.setChatter(0);
    // Measured, not assumed: a busy machine may sleep longer than asked.
    const expected = (20 * (performance.now() - started)) / 1000;
    await sleep(600);
    stop();
    const patients = heard.flatMap((event) =>
      event.type === 'created' && event.log.sender_type === 'customer' ? [event.log] : [],
    );
    expect(patients.length).toBeGreaterThanOrEqual(Math.floor(expected * 0.75));
    expect(patients.length).toBeLessThanOrEqual(Math.ceil(expected));
    expect(new Set(patients.map((log) => log.tenant_id))).toEqual(new Set([1, 2]));
    for (const log of patients) {
      expect(log).toMatchObject({ status: 'received', media_type: null, read_at: null });
      expect([1, 2, 3, 4, 5, 6]).toContain(log.conversation_id);
    }
    const tenant1Ids = heard.flatMap((event) =>
      event.type === 'created' && event.tenantId === 1 ? [event.log.id] : [],
    );
    const createdInTenant1 = inTenant1.filter(({ event }) => event === CREATED);
    expect(createdInTenant1.map(({ data }) => data.id)).toEqual(tenant1Ids);
    // Stopped: nothing more arrives.
    const count = heard.length;
    await sleep(300);
    expect(heard.length).toBe(count);
  });

  it('takes fractional rates and is off by default', async () => {
    // Chatter counts what is due from the sandbox's clock: moved by hand, the count is exact however late the
    // machine runs its timers (a loaded CI host skipped ticks when this was measured against the wall clock).
    const clock = manualClock();
    const slow = await startSandbox({ port: 0, chatter: 5.5, clock });
    const quiet = await startSandbox({ port: 0, clock });
    try {
      const slowHeard: ChatEvent[] = [];
      const quietHeard: ChatEvent[] = [];
      slow.onChatEvent((event) => slowHeard.push(event));
      quiet.onChatEvent((event) => quietHeard.push(event));
      const generated = () =>
        slowHeard.filter((e) => e.type === 'created' && e.log.sender_type === 'customer').length;
      clock.advance(2000);
      await vi.waitFor(() => expect(generated()).toBe(11), { timeout: 10_000, interval: 50 }); // 5.5/s × 2 s
      clock.advance(1000);
      await vi.waitFor(() => expect(generated()).toBe(16), { timeout: 10_000, interval: 50 }); // floor(5.5 × 3)
      await sleep(400); // two more ticks: nothing is due until the clock moves
      expect(generated()).toBe(16);
      expect(quietHeard).toEqual([]);
      expect(() => slow.setChatter(-1)).toThrow(/chatter/);
      await expect(startSandbox({ port: 0, chatter: Number.NaN })).rejects.toThrow(/chatter/);
    } finally {
      await slow.close();
      await quiet.close();
    }
  });

  it('now and then reads a conversation and deletes one of its own messages, the same for the same seed', async () => {
    // Two sandboxes on one clock moved by hand: each sends exactly what is due, so both runs line up event by event.
    const clock = manualClock();
    const runs = await Promise.all([
      startSandbox({ port: 0, seed: 3, clock }),
      startSandbox({ port: 0, seed: 3, clock }),
    ]);
    try {
      const heard = runs.map((running) => {
        const events: ChatEvent[] = [];
        running.onChatEvent((event) => events.push(event));
        running.setChatter(20);
        return events;
      });
      const [first = [], second = []] = heard;
      const patients = (events: ChatEvent[]) =>
        events.filter((e) => e.type === 'created' && e.log.sender_type === 'customer').length;
      for (let second = 1; second <= 5; second++) {
        clock.advance(1000);
        await vi.waitFor(() => expect(heard.map(patients)).toEqual([20 * second, 20 * second]), {
          timeout: 10_000,
          interval: 20,
        });
      }
      for (const running of runs) running.setChatter(0);
      const generated = new Map(
        first.flatMap((e) =>
          e.type === 'created' && e.log.sender_type === 'customer' ? [[e.log.id, e.log]] : [],
        ),
      );
      const deleted = first.flatMap((e) => (e.type === 'deleted' ? [e] : []));
      const read = first.flatMap((e) => (e.type === 'read' ? [e] : []));
      // 100 messages at a 10 % and a 20 % chance each: a handful of both, never none.
      expect(deleted.length).toBeGreaterThan(0);
      expect(read.length).toBeGreaterThan(0);
      for (const event of deleted) {
        // Only its own patient messages, once each, in the name of the tenant's admin.
        expect(generated.get(event.chatLogId)).toMatchObject({
          conversation_id: event.conversationId,
          tenant_id: event.tenantId,
        });
        expect(event.deletedByUserName).toBe('Dana Admin'); // the admin of tenants 1 and 2
        const gone = await call(
          runs[0]!,
          `/v1/conversations/${event.conversationId}/messages/${event.chatLogId}`,
          {
            tenant: event.tenantId,
          },
        );
        expect(gone.status).toBe(404);
      }
      expect(new Set(deleted.map((e) => e.chatLogId)).size).toBe(deleted.length);
      for (const event of read) expect([1, 2, 3, 4, 5, 6]).toContain(event.conversation_id);
      const kinds = (events: ChatEvent[]) =>
        events.map((e) =>
          e.type === 'created'
            ? `created ${e.log.id}`
            : e.type === 'deleted'
              ? `deleted ${e.chatLogId}`
              : `read ${e.conversation_id}`,
        );
      // Assistant replies come on their own timers; the chatter's own events replay exactly.
      const ownKinds = (events: ChatEvent[]) =>
        kinds(events.filter((e) => e.type !== 'created' || e.log.sender_type === 'customer'));
      expect(ownKinds(second)).toEqual(ownKinds(first));
    } finally {
      await Promise.all(runs.map((running) => running.close()));
    }
  });

  it('replays the same conversations and texts for the same seed', async () => {
    const runs = await Promise.all([startSandbox({ port: 0, seed: 7 }), startSandbox({ port: 0, seed: 7 })]);
    try {
      const sequences = runs.map((running) => {
        const seen: string[] = [];
        running.onChatEvent((event) => {
          if (event.type === 'created' && event.log.sender_type === 'customer') {
            seen.push(`${event.log.conversation_id}:${event.log.body}`);
          }
        });
        running.setChatter(50);
        return seen;
      });
      await waitUntil(() => sequences.every((seen) => seen.length >= 12));
      for (const running of runs) running.setChatter(0);
      const [first = [], second = []] = sequences;
      const common = Math.min(first.length, second.length);
      expect(first.slice(0, common)).toEqual(second.slice(0, common));
      expect(new Set(first).size).toBeGreaterThan(3);
    } finally {
      await Promise.all(runs.map((running) => running.close()));
    }
  });
});

describe('the AI assistant', () => {
  it('answers a patient 200-500 ms later where it is enabled, and only there', async () => {
    const pusher = connectPusher(sandbox);
    const received = recordEvents(await subscribed(pusher, 'private-chat-log.1'));
    // Measured where the messages are made: the client shares this process and may read both at once.
    const madeAt = new Map<number, number>();
    const stop = sandbox.onChatEvent((event) => {
      if (event.type === 'created') madeAt.set(event.log.id, performance.now());
    });
    const question = sandbox.postMessage({ tenantId: 1, conversationId: 1, body: 'Are you open today?' });
    sandbox.postMessage({ tenantId: 1, conversationId: 2, body: 'Nobody answers here' });
    await waitUntil(() => received.length >= 3, 3000, 'assistant reply');
    await sleep(600);
    stop();
    const [asked, , reply, ...rest] = received;
    expect(rest).toEqual([]);
    expect(asked?.data.id).toBe(question.id);
    // "The sender of a created message is identified by `sender_type` plus `sender_id`" (an integer).
    expect(reply?.data).toMatchObject({
      conversation_id: 1,
      sender_type: 'assistant',
      sender_id: ASSISTANT_SENDER_ID,
      status: 'sent',
      tenant_id: 1,
    });
    const listed = await call(sandbox, `/v1/conversations/1/messages?after=${question.id}`);
    expect(listed.body.data.find((m: { id: number }) => m.id === reply?.data.id)).toEqual(reply?.data);
    const delay = (madeAt.get(reply?.data.id) ?? 0) - (madeAt.get(question.id) ?? 0);
    expect(delay).toBeGreaterThanOrEqual(195);
    expect(delay).toBeLessThanOrEqual(1000);
  });

  it('follows agent/enable and agent/disable, and never answers staff or itself', async () => {
    const pusher = connectPusher(sandbox);
    const received = recordEvents(await subscribed(pusher, 'private-chat-log.1'));
    expect((await call(sandbox, '/v1/conversations/2/agent/enable', { method: 'POST' })).status).toBe(200);
    sandbox.postMessage({ tenantId: 1, conversationId: 2, body: 'Hello?' });
    sandbox.postMessage({ tenantId: 1, conversationId: 2, body: 'Staff here', senderType: 'user' });
    await waitUntil(() => received.some(({ data }) => data.sender_type === 'assistant'), 2000);
    await call(sandbox, '/v1/conversations/2/agent/disable', { method: 'POST' });
    sandbox.postMessage({ tenantId: 1, conversationId: 2, body: 'Still there?' });
    await sleep(700);
    expect(received.map(({ data }) => data.sender_type)).toEqual([
      'customer',
      'user',
      'assistant',
      'customer',
    ]);
  });
});
