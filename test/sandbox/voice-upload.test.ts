// POST /v1/conversations/{id}/messages/voice: the multipart `file` part, its 51200 KiB bound, and bad uploads.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type ChatEvent, type RunningSandbox } from '../../src/sandbox/index.js';
import { call, upload, legacyErrorBody, sandboxForFile } from './client.js';

const LIMIT_BYTES = 51200 * 1024;

let sandbox: RunningSandbox;
sandboxForFile((running) => {
  sandbox = running;
});

function voiceForm(bytes: number, field = 'file', filename: string | null = 'note.ogg'): FormData {
  const form = new FormData();
  const blob = new Blob([new Uint8Array(bytes)], { type: 'audio/ogg' });
  if (filename === null) form.append(field, 'not a file');
  else form.append(field, blob, filename);
  return form;
}

/** Sends a hand-written body, for multipart that fetch would never produce. */
function rawPost(path: string, contentType: string, body: string) {
  return new Promise<{ status: number; body: { errors?: Record<string, string[]> } }>((resolve, reject) => {
    const req = request(
      `${sandbox.info.base_url}${path}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${sandbox.info.token}`,
          'x-tenant': '1',
          'content-type': contentType,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('a voice message', () => {
  it('is queued (201) and stored as an audio chat log, heard by the chat hook', async () => {
    const events: ChatEvent[] = [];
    const stop = sandbox.onChatEvent((event) => events.push(event));
    const result = await upload(sandbox, '/v1/conversations/1/messages/voice', voiceForm(2048));
    stop();
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      success: true,
      data: { status: 'queued', message_id: expect.stringMatching(/^\d+$/), conversation_id: '1' },
    });
    const id = Number(result.body.data.message_id);
    expect(id).toBeGreaterThan(54);
    const stored = await call(sandbox, `/v1/conversations/1/messages/${id}`);
    expect(stored.body.data).toMatchObject({
      id,
      tenant_id: 1,
      conversation_id: 1,
      sender_type: 'user',
      sender_id: 1,
      media_type: 'audio',
      status: 'queued',
      read_at: null,
    });
    expect(events).toEqual([{ type: 'created', tenantId: 1, log: stored.body.data }]);
    const after = await call(sandbox, '/v1/conversations/1/messages?after=6');
    expect(after.body.data.map((m: { id: number }) => m.id)).toEqual([id]);
  });

  it('takes a file of exactly 51200 KiB and refuses one byte more (422)', async () => {
    // Both 50 MiB forms are built before the first upload: building one takes seconds on a loaded machine, long
    // enough for the server to close the idle keep-alive connection just as fetch reuses it (ECONNRESET).
    const [formAtLimit, formOver] = [voiceForm(LIMIT_BYTES), voiceForm(LIMIT_BYTES + 1)];
    const atLimit = await upload(sandbox, '/v1/conversations/2/messages/voice', formAtLimit);
    expect(atLimit.status).toBe(201);
    const over = await upload(sandbox, '/v1/conversations/2/messages/voice', formOver);
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual({ file: ['The file field must not be greater than 51200 kilobytes.'] });
  });

  it('answers 422 without a file part, with a text part, or with an empty file', async () => {
    const cases: [FormData, string][] = [
      [voiceForm(10, 'audio'), 'The file field is required.'],
      [voiceForm(10, 'file', null), 'The file field must be a file.'],
      [voiceForm(0), 'The file field must not be empty.'],
    ];
    for (const [form, message] of cases) {
      const result = await upload(sandbox, '/v1/conversations/1/messages/voice', form);
      expect(result.status).toBe(422);
      expect(result.body).toEqual({ message, errors: { file: [message] } });
    }
  });

  it('answers 422 for bodies that are not multipart, or cut short', async () => {
    const path = '/v1/conversations/1/messages/voice';
    const json = await call(sandbox, path, { json: { file: 'x' } });
    expect(json.status).toBe(422);
    const truncated = await rawPost(
      path,
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.ogg"\r\n\r\nabc',
    );
    expect(truncated).toEqual({
      status: 422,
      body: expect.objectContaining({ errors: { file: ['The file failed to upload.'] } }),
    });
    const noBoundary = await rawPost(path, 'multipart/form-data', 'whatever');
    expect(noBoundary.status).toBe(422);
    const garbageHeaders = await rawPost(
      path,
      'multipart/form-data; boundary=b',
      `--b\r\n${'x'.repeat(20_000)}`,
    );
    expect(garbageHeaders.status).toBe(422);
  });

  it('answers the legacy 404 for an unknown or foreign conversation', async () => {
    for (const id of ['999', '4']) {
      const result = await upload(sandbox, `/v1/conversations/${id}/messages/voice`, voiceForm(10));
      expect(result.status).toBe(404);
      expect(result.body).toEqual(legacyErrorBody('Conversation not found.'));
    }
  });

  it('needs conversations:write and a role that writes', async () => {
    const readOnly = sandbox.issueToken({ userId: 1, scopes: ['conversations:read'] });
    const scoped = await upload(sandbox, '/v1/conversations/1/messages/voice', voiceForm(10), {
      token: readOnly,
    });
    expect(scoped).toMatchObject({ status: 403, body: { message: 'Invalid scope(s) provided.' } });
    const viewer = sandbox.issueToken({ userId: 3 });
    const role = await upload(sandbox, '/v1/conversations/1/messages/voice', voiceForm(10), {
      token: viewer,
    });
    expect(role).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.' } });
    const salesperson = sandbox.issueToken({ userId: 2 });
    const allowed = await upload(sandbox, '/v1/conversations/1/messages/voice', voiceForm(10), {
      token: salesperson,
    });
    expect(allowed.status).toBe(201);
  });
});
