// POST /api/broadcasting/auth: who may subscribe to which private-chat-log channel, with form or JSON bodies.
import * as client from 'openid-client';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSandbox } from '../../src/sandbox/index.js';
import {
  call,
  callHeaders,
  type CallOptions,
  type CallResult,
  readResult,
  sandboxForFile,
} from './client.js';
import { discover, login } from './oauth-browser.js';
import { RawSocket } from './realtime-client.js';

let sandbox: RunningSandbox;
sandboxForFile((running) => {
  sandbox = running;
});
afterEach(() => {
  sandbox.setRateLimit(0);
});

const SIGNATURE = /^sandbox-key:[0-9a-f]{64}$/;

/** Posts a form, as pusher-js's ajax authorizer does. */
async function authorizeForm(
  fields: Record<string, string>,
  options: Pick<CallOptions, 'token' | 'tenant'> = {},
): Promise<CallResult> {
  const headers = { ...callHeaders(sandbox, options), 'content-type': 'application/x-www-form-urlencoded' };
  const response = await fetch(sandbox.info.realtime.auth_endpoint, {
    method: 'POST',
    headers,
    body: new URLSearchParams(fields).toString(),
  });
  return readResult(response);
}

const fields = (channel = 'private-chat-log.1', socketId = '1234.5678') => ({
  socket_id: socketId,
  channel_name: channel,
});

describe('a member of the tenant', () => {
  it('gets {auth: "key:signature"} for a form body', async () => {
    const result = await authorizeForm(fields());
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ auth: expect.stringMatching(SIGNATURE) });
    expect(result.headers.get('content-type')).toContain('application/json');
  });

  it('gets the same signature for a JSON body, and a different one for another socket', async () => {
    const form = await authorizeForm(fields());
    const json = await call(sandbox, '/broadcasting/auth', { json: fields() });
    expect(json.status).toBe(200);
    expect(json.body.auth).toBe(form.body.auth);
    const other = await authorizeForm(fields('private-chat-log.1', '1234.5679'));
    expect(other.body.auth).not.toBe(form.body.auth);
  });

  it('is authorized whatever the role (a viewer reads chat too)', async () => {
    const viewer = sandbox.issueToken({ userId: 3, scopes: ['customers:read'] });
    expect((await authorizeForm(fields(), { token: viewer })).status).toBe(200);
    const nurse = sandbox.issueToken({ userId: 4 });
    expect((await authorizeForm(fields('private-chat-log.2'), { token: nurse, tenant: 2 })).status).toBe(200);
  });

  it("accepts the OpenID provider's JWT access tokens", async () => {
    const config: client.Configuration = await discover(sandbox);
    const { tokens } = await login(config, { scope: 'openid conversations:read' });
    const result = await authorizeForm(fields(), { token: tokens.access_token });
    expect(result).toMatchObject({ status: 200, body: { auth: expect.stringMatching(SIGNATURE) } });
  });

  it('signs what the WebSocket server accepts for that socket', async () => {
    const socket = await RawSocket.open(sandbox);
    try {
      const socketId = await socket.socketId();
      const { body } = await authorizeForm(fields('private-chat-log.1', socketId));
      const answer = await socket.ask(
        { event: 'pusher:subscribe', data: { channel: 'private-chat-log.1', auth: body.auth } },
        'pusher_internal:subscription_succeeded',
      );
      expect(answer).toEqual({
        event: 'pusher_internal:subscription_succeeded',
        channel: 'private-chat-log.1',
        data: {},
      });
    } finally {
      socket.close();
    }
  });
});

describe('refusals', () => {
  it('answers 401 {message} without a token or with an unknown one', async () => {
    for (const token of [null, 'clinic_pat_nope']) {
      const result = await authorizeForm(fields(), { token });
      expect(result).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
    }
  });

  it('answers 400 with the legacy envelope when X-Tenant is missing or not a number', async () => {
    expect(await authorizeForm(fields(), { tenant: null })).toMatchObject({
      status: 400,
      body: { success: false, error: 'The X-Tenant header is required.' },
    });
    expect((await authorizeForm(fields(), { tenant: 'one' })).status).toBe(400);
  });

  it('answers 403 for another tenant than X-Tenant, or a tenant the user is not in', async () => {
    const forbidden = { status: 403, body: { message: 'This action is unauthorized.' } };
    expect(await authorizeForm(fields('private-chat-log.2'), { tenant: 1 })).toEqual(
      expect.objectContaining(forbidden),
    );
    const salesperson = sandbox.issueToken({ userId: sandbox.fixtures.salespersonUserId });
    expect(
      await authorizeForm(fields('private-chat-log.2'), { token: salesperson, tenant: 2 }),
    ).toMatchObject(forbidden);
    expect(await authorizeForm(fields('private-chat-log.4'), { tenant: 4 })).toMatchObject(forbidden);
    expect(await authorizeForm(fields('private-chat-log.99'), { tenant: 99 })).toMatchObject(forbidden);
  });

  it.each([
    'private-foo',
    'chat-log.1',
    'presence-chat-log.1',
    'private-chat-log.01',
    'private-chat-log.1x',
    '',
  ])('answers 403 for the channel name %j', async (channel) => {
    expect((await authorizeForm(fields(channel))).status).toBe(403);
  });

  it.each([
    ['', 'The socket id field is required.'],
    ['abc', 'The socket id field format is invalid.'],
    ['1.2.3', 'The socket id field format is invalid.'],
  ])('answers 422 for the socket id %j', async (socketId, message) => {
    const result = await authorizeForm(fields('private-chat-log.1', socketId));
    expect(result).toMatchObject({ status: 422, body: { message, errors: { socket_id: [message] } } });
  });

  it('answers 422 to a JSON body without string fields, 400 to broken JSON', async () => {
    expect(
      (await call(sandbox, '/broadcasting/auth', { json: { socket_id: 12.5, channel_name: 1 } })).status,
    ).toBe(422);
    expect(
      (await call(sandbox, '/broadcasting/auth', { method: 'POST', rawBody: '{"socket_id"' })).status,
    ).toBe(400);
  });

  it('answers 405 to GET', async () => {
    expect((await call(sandbox, '/broadcasting/auth')).status).toBe(405);
  });
});

describe('rate limit', () => {
  it('counts authorization requests like any API call', async () => {
    sandbox.setRateLimit(2);
    const first = await authorizeForm(fields());
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await authorizeForm(fields())).status).toBe(200);
    const refused = await authorizeForm(fields());
    expect(refused).toMatchObject({ status: 429, body: { message: 'Too Many Attempts.' } });
    expect(refused.headers.get('retry-after')).not.toBeNull();
  });
});
