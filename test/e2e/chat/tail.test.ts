// `clinic chat tail` end to end: the built CLI with the real pusher-js against the sandbox's realtime server.
import { describe, expect, it } from 'vitest';
import { spawnTail, type Tail } from '../../helpers/tail-process.js';
import { realtimeWorld, useWorld } from '../../helpers/world.js';

const world = useWorld(() => realtimeWorld({ erasureStepSeconds: 0 }));

const tail = (args: string[], env: Record<string, string> = {}): Tail =>
  spawnTail(world.configDir, args, env);

const events = (t: Tail) => t.lines.map((line) => JSON.parse(line));
// The second conversation: the first has the AI assistant on, which answers every patient message.
const conversation = () => world.sandbox.fixtures.tenants[1]?.conversations[1] as number;
const post = (body: string) =>
  world.sandbox.postMessage({ tenantId: 1, conversationId: conversation(), body, senderType: 'customer' });

describe('chat tail', () => {
  it('prints live messages as NDJSON as they arrive, with the documented payload', async () => {
    const t = tail(['-o', 'ndjson', '--timeout', '20']);
    await t.waitFor(() => t.stderr().includes('connected'), 'the subscription');
    const sent = [post('hello'), post('second')];
    await t.waitFor(() => t.lines.length >= 2, 'two events');
    t.child.kill('SIGINT');
    expect(await t.exit).toBe(130);
    const got = events(t);
    expect(got.map((e) => [e.event, e.source, e.data.id])).toEqual(
      sent.map((s) => ['ChatLogCreated', 'realtime', s.id]),
    );
    expect(got[0].data).toMatchObject({ body: 'hello', conversation_id: conversation(), tenant_id: 1 });
  });

  it('after a dropped connection, the messages sent meanwhile are printed once, from REST, in order', async () => {
    const t = tail(['-o', 'ndjson', '--timeout', '40']);
    await t.waitFor(() => t.stderr().includes('connected'), 'the subscription');
    const before = post('before the outage');
    await t.waitFor(() => t.lines.length >= 1, 'the first event');
    world.sandbox.blockRealtime(2500);
    const missed = [post('missed 1'), post('missed 2'), post('missed 3')];
    await t.waitFor(() => t.stderr().includes('filled 3 missed messages'), 'the gap fill', 20_000);
    const after = post('after the outage');
    await t.waitFor(() => t.lines.length >= 5, 'the live event after the fill');
    t.child.kill('SIGINT');
    await t.exit;
    const got = events(t);
    expect(got.map((e) => e.data.id)).toEqual([before, ...missed, after].map((m) => m.id));
    expect(got.map((e) => e.source)).toEqual(['realtime', 'rest', 'rest', 'rest', 'realtime']);
    expect(t.stderr()).toContain('reconnect');
  }, 45_000);

  it('messages sent all through an outage, racing the catch-up, are each printed once and in order', async () => {
    const t = tail(['-o', 'ndjson', '--timeout', '40']);
    await t.waitFor(() => t.stderr().includes('connected'), 'the subscription');
    const sent: number[] = [];
    for (let i = 0; i < 60; i++) {
      if (i === 15) world.sandbox.blockRealtime(1500);
      sent.push(post(`burst ${i}`).id);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await t.waitFor(() => events(t).some((e) => e.data.id === sent.at(-1)), 'the last message', 20_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // anything printed twice would show by now
    t.child.kill('SIGINT');
    await t.exit;
    const printed = events(t).map((e) => e.data.id);
    expect(printed).toEqual(sent);
    expect(events(t).some((e) => e.source === 'rest')).toBe(true);
  }, 45_000);

  it('--since prints the messages after it first (from REST), then live ones', async () => {
    const ids = world.sandbox.fixtures.tenants[1]?.messages[conversation()] as number[];
    const t = tail([
      '--conversation',
      String(conversation()),
      '--since',
      String(ids[3]),
      '-o',
      'ndjson',
      '--timeout',
      '20',
    ]);
    await t.waitFor(() => t.lines.length >= 2, 'the backfill');
    const live = post('live after since');
    await t.waitFor(() => events(t).some((e) => e.data.id === live.id), 'the live event');
    t.child.kill('SIGINT');
    await t.exit;
    const got = events(t);
    expect(got.slice(0, 2).map((e) => [e.data.id, e.source])).toEqual([
      [ids[4], 'rest'],
      [ids[5], 'rest'],
    ]);
    expect(new Set(got.map((e) => e.data.id)).size).toBe(got.length);
  });

  it('deleted and read events with --events; a human line on a terminal-less -o table', async () => {
    const t = tail(['--events', 'created,deleted,read', '-o', 'ndjson', '--timeout', '20']);
    await t.waitFor(() => t.stderr().includes('connected'), 'the subscription');
    const message = post('to delete');
    world.sandbox.deleteMessage(conversation(), message.id, 'Dana Admin');
    world.sandbox.markRead(1, conversation());
    await t.waitFor(() => t.lines.length >= 3, 'three events');
    t.child.kill('SIGINT');
    await t.exit;
    expect(events(t).map((e) => e.event)).toEqual(['ChatLogCreated', 'ChatLogDeleted', 'ConversationRead']);
    expect(events(t)[1].data).toEqual({
      chatLogId: message.id,
      conversationId: conversation(),
      deletedByUserName: 'Dana Admin',
    });
  });

  it('a refused channel authorization exits 4 (not a member) or 3 (bad token) with the reason', async () => {
    const viewer = world.sandbox.issueToken({ userId: 3 }); // a member of tenants 1 and 2 only
    const refused = tail(['--tenant', '3', '--timeout', '20'], { CLINIC_TOKEN: viewer });
    expect(await refused.exit).toBe(4);
    expect(refused.stderr()).toMatch(/error: .*unauthorized/i);
    const bad = tail(['--timeout', '20'], { CLINIC_TOKEN: 'not-a-token' });
    expect(await bad.exit).toBe(3);
  });

  it('Ctrl-C leaves valid NDJSON and exits 130; --timeout exits 0', async () => {
    const t = tail(['-o', 'ndjson', '--timeout', '3']);
    await t.waitFor(() => t.stderr().includes('connected'), 'the subscription');
    post('one');
    expect(await t.exit).toBe(0);
    for (const line of t.lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  // Last: the sandbox's realtime stays blocked after it.
  it('a connection lost for good (down longer than --reconnect-timeout) exits 1 with the reason', async () => {
    const t = tail(['-o', 'ndjson', '--reconnect-timeout', '2', '--timeout', '30']);
    await t.waitFor(() => t.stderr().includes('connected'), 'the subscription');
    world.sandbox.blockRealtime(15_000);
    expect(await t.exit).toBe(1);
    expect(t.stderr()).toMatch(/error: lost the realtime connection for \d+s; giving up/);
  }, 30_000);
});
