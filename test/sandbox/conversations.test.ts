// Conversation messages (list, `after`, one message), the AI assistant switch, and the store's chat event hook.
import { describe, expect, it } from 'vitest';
import { declaredKeys } from '../helpers/declared-keys.js';
import { ASSISTANT_SENDER_ID } from '../../src/sandbox/data/chat-types.js';
import { buildSeedStore } from '../../src/sandbox/data/seed.js';
import { type ChatEvent, type RunningSandbox, type TenantFixtures } from '../../src/sandbox/index.js';
import { call, type Json, legacyErrorBody, sandboxForFile } from './client.js';

let sandbox: RunningSandbox;
let tenantOne: TenantFixtures;
sandboxForFile((running) => {
  sandbox = running;
  tenantOne = sandbox.fixtures.tenants[1] as TenantFixtures;
});

const OFFSET_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

describe('GET /v1/conversations/{id}/messages', () => {
  it('lists the messages oldest first, shaped like the ChatLogCreated payload', async () => {
    const { status, body } = await call(sandbox, '/v1/conversations/1/messages');
    expect(status).toBe(200);
    expect(body.data.map((m: Json) => m.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(body.meta).toMatchObject({ total: 6, current_page: 1, last_page: 1 });
    for (const message of body.data) {
      expect(Object.keys(message)).toEqual(declaredKeys('ChatLog'));
      expect(message).toMatchObject({ tenant_id: 1, conversation_id: 1 });
      expect(['customer', 'user', 'assistant']).toContain(message.sender_type);
      expect(['received', 'sent', 'queued', 'read']).toContain(message.status);
      expect(message.created_at).toMatch(OFFSET_TIME);
      if (message.read_at !== null) expect(message.read_at).toMatch(OFFSET_TIME);
    }
  });

  it('identifies every sender by sender_type plus an integer sender_id, the assistant too', async () => {
    const { body } = await call(sandbox, '/v1/conversations/1/messages');
    for (const message of body.data) expect(Number.isInteger(message.sender_id), message.id).toBe(true);
    const assistant = body.data.filter((m: Json) => m.sender_type === 'assistant');
    expect(assistant.length).toBeGreaterThan(0);
    for (const message of assistant) expect(message.sender_id).toBe(ASSISTANT_SENDER_ID);
  });

  it('numbers messages on one sequence across tenants', async () => {
    expect(tenantOne.messages[3]).toEqual([13, 14, 15, 16, 17, 18]);
    const tenantTwo = await call(sandbox, '/v1/conversations/4/messages', { tenant: 2 });
    expect(tenantTwo.body.data.map((m: Json) => m.id)).toEqual([19, 20, 21, 22, 23, 24]);
    const voice = (await call(sandbox, '/v1/conversations/2/messages')).body.data.find(
      (m: Json) => m.media_type === 'audio',
    );
    expect(voice).toMatchObject({ sender_type: 'customer' });
  });

  it('returns only messages after `after`, and pages them', async () => {
    const after = await call(sandbox, '/v1/conversations/1/messages?after=4');
    expect(after.body.data.map((m: Json) => m.id)).toEqual([5, 6]);
    expect((await call(sandbox, '/v1/conversations/1/messages?after=6')).body.data).toEqual([]);
    expect((await call(sandbox, '/v1/conversations/1/messages?after=0')).body.meta.total).toBe(6);
    const paged = await call(sandbox, '/v1/conversations/1/messages?after=1&per_page=2&page=2');
    expect(paged.body.data.map((m: Json) => m.id)).toEqual([4, 5]);
  });

  it('answers 422 for an `after` that is not a whole number', async () => {
    for (const after of ['abc', '-1', '1.5']) {
      const result = await call(sandbox, `/v1/conversations/1/messages?after=${after}`);
      expect(result.status).toBe(422);
      expect(result.body.errors).toEqual({ after: ['The after field must be an integer.'] });
    }
  });

  it('answers the legacy 404 for unknown and foreign conversations', async () => {
    for (const id of ['999', '4', 'x']) {
      const result = await call(sandbox, `/v1/conversations/${id}/messages`);
      expect(result.status).toBe(404);
      expect(result.body).toEqual(legacyErrorBody('Conversation not found.'));
    }
  });
});

describe('GET /v1/conversations/{id}/messages/{messageId}', () => {
  it('reads one message', async () => {
    const result = await call(sandbox, '/v1/conversations/1/messages/3');
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ id: 3, conversation_id: 1 });
  });

  it('answers the legacy 404 for a message that is unknown or in another conversation', async () => {
    for (const path of [
      '/v1/conversations/1/messages/7',
      '/v1/conversations/1/messages/999',
      '/v1/conversations/1/messages/x',
    ]) {
      const result = await call(sandbox, path);
      expect(result.status).toBe(404);
      expect(result.body).toEqual(legacyErrorBody('Message not found.'));
    }
    expect((await call(sandbox, '/v1/conversations/4/messages/19')).status).toBe(404);
  });
});

describe('the AI assistant switch', () => {
  it('reads, disables and enables, idempotently', async () => {
    const initial = await call(sandbox, '/v1/conversations/2/agent');
    expect(initial.body).toEqual({
      success: true,
      data: { conversation_id: 2, enabled: false, updated_at: expect.any(String) },
    });
    const enabled = await call(sandbox, '/v1/conversations/2/agent/enable', { method: 'POST' });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data.enabled).toBe(true);
    const again = await call(sandbox, '/v1/conversations/2/agent/enable', { method: 'POST' });
    expect(again.body.data).toEqual(enabled.body.data);
    expect((await call(sandbox, '/v1/conversations/2/agent')).body.data.enabled).toBe(true);
    const disabled = await call(sandbox, '/v1/conversations/2/agent/disable', { method: 'POST' });
    expect(disabled.body.data.enabled).toBe(false);
  });

  it('needs conversations:write and a writing role to switch', async () => {
    const readOnly = sandbox.issueToken({ userId: 1, scopes: ['conversations:read'] });
    expect((await call(sandbox, '/v1/conversations/1/agent', { token: readOnly })).status).toBe(200);
    const switched = await call(sandbox, '/v1/conversations/1/agent/disable', {
      token: readOnly,
      method: 'POST',
    });
    expect(switched.status).toBe(403);
    const viewer = sandbox.issueToken({ userId: 3 });
    expect(
      (await call(sandbox, '/v1/conversations/1/agent/disable', { token: viewer, method: 'POST' })).status,
    ).toBe(403);
    expect((await call(sandbox, '/v1/conversations/9/agent', { tenant: 1 })).status).toBe(404);
  });
});

describe('chat events', () => {
  it('reports every creation, deletion and read through one hook, in order', () => {
    const store = buildSeedStore({ seed: 1, records: 4 });
    const events: ChatEvent[] = [];
    const stop = store.onChatEvent((event) => events.push(event));
    store.onChatEvent(() => {
      throw new Error('a broken listener changes nothing');
    });
    const log = store.chat.add(
      {
        tenant_id: 2,
        conversation_id: 4,
        sender_type: 'customer',
        sender_id: null,
        body: 'Hi',
        media_type: null,
        status: 'received',
        read_at: null,
      },
      Date.UTC(2026, 0, 5),
    );
    expect(log).toMatchObject({ id: 55, created_at: '2026-01-05T00:00:00+00:00' });
    const asCreated = { ...log };
    expect(store.chat.remove(4, 20, 'Dana Admin', Date.now())).toBe(true);
    expect(store.chat.remove(4, 20, 'Dana Admin', Date.now())).toBe(false);
    store.chat.markRead(2, 4, Date.now());
    stop();
    store.chat.markRead(2, 4, Date.now());
    expect(events).toEqual([
      // The message as it was created: marking it read later does not rewrite the event heard.
      { type: 'created', tenantId: 2, log: asCreated },
      { type: 'deleted', tenantId: 2, chatLogId: 20, conversationId: 4, deletedByUserName: 'Dana Admin' },
      { type: 'read', tenantId: 2, conversation_id: 4 },
    ]);
    expect(store.chat.ofConversation(4).map((m) => m.id)).toEqual([19, 21, 22, 23, 24, 55]);
    expect(store.chat.get(4, 20)).toBeUndefined();
    expect(store.chat.get(4, 55)).toMatchObject({ status: 'read', read_at: expect.any(String) });
  });
});
