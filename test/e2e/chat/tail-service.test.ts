// `chat tail` as a service, end to end: the built CLI against the sandbox, a webhook endpoint written here that
// verifies signatures and goes down on request, tails killed with SIGKILL and started again while messages are
// created, and two tails on one checkpoint.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../helpers/temp-dir.js';
import {
  checkpointPositions,
  postPatientMessage,
  printedIds,
  tailConversations,
  type Tail,
} from '../../helpers/tail-process.js';
import { useTailRuns } from '../../helpers/tail-runs.js';
import { realtimeWorld, useWorld } from '../../helpers/world.js';

const world = useWorld(() => realtimeWorld({ erasureStepSeconds: 0 }));
const dir = useTempDir('clinic-tail-service-');
const SECRET = 'whsec_e2e_secret';

const runs = useTailRuns(world);
const tail = runs.tail;
const receiver = (secret = SECRET) => runs.receiver(secret);

/** Kills with SIGKILL (no flush, no lock released, as a crash or `systemctl kill -s KILL`) and waits for the end. */
async function crash(t: Tail): Promise<void> {
  t.child.kill('SIGKILL');
  await t.exit;
}

const conversations = () => tailConversations(world);
const post = (body: string, i = 0) => postPatientMessage(world, body, i);
const connected = (t: Tail) => t.waitFor(() => t.stderr().includes('listening on'), 'the subscription');
const positions = checkpointPositions;
/** The checkpoint holds `id` (or a later one) for its conversation: everything up to it was delivered. */
const checkpointed = async (file: string, conversation: number, id: number) =>
  ((await positions(file)).get(conversation) ?? 0) >= id;

describe('chat tail --forward-to', () => {
  it('POSTs each event as its NDJSON object, signed, with a stable id; nothing on stdout', async () => {
    const endpoint = await receiver();
    const t = tail(['--forward-to', endpoint.url, '--timeout', '30'], { CLINIC_FORWARD_SECRET: SECRET });
    await connected(t);
    const sent = [post('hello', 0), post('second', 1), post('third', 0)];
    await t.waitFor(() => endpoint.accepted().length >= 3, 'three deliveries');
    t.child.kill('SIGINT');
    expect(await t.exit).toBe(130);
    const got = endpoint.accepted();
    expect(got.map((p) => p.body.data.id)).toEqual(sent);
    expect(got.every((p) => p.verified)).toBe(true);
    expect(got.map((p) => p.eventId)).toEqual(
      sent.map((id, i) => `ChatLogCreated.1.${conversations()[i % 2]}.${id}`),
    );
    expect(got[0]!.body).toMatchObject({
      event: 'ChatLogCreated',
      source: 'realtime',
      data: { id: sent[0], body: 'hello', conversation_id: conversations()[0] },
    });
    expect(got[0]!.headers['content-type']).toBe('application/json');
    expect(got[0]!.headers['clinic-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(t.lines).toEqual([]);
    expect(t.stderr()).not.toContain(SECRET);
  });

  it("a credential in the endpoint's query is not shown on stderr", async () => {
    const endpoint = await receiver();
    const t = tail(['--forward-to', `${endpoint.url}?token=hook-credential`, '--timeout', '30'], {
      CLINIC_FORWARD_SECRET: SECRET,
    });
    await t.waitFor(() => t.stderr().includes('forwarding to'), 'the forwarding line');
    t.child.kill('SIGINT');
    await t.exit;
    expect(t.stderr()).toMatch(/forwarding to http:\/\/127\.0\.0\.1:\d+\/\S*\?token=\*\*\*/);
    expect(t.stderr()).not.toContain('hook-credential');
  });

  it('an endpoint that answers 503 for a while gets every event once it recovers, in order, none dropped', async () => {
    const endpoint = await receiver();
    const t = tail(['--forward-to', endpoint.url, '--timeout', '60'], { CLINIC_FORWARD_SECRET: SECRET });
    await connected(t);
    endpoint.answer = 503;
    const sent = [post('during 1', 0), post('during 2', 1), post('during 3', 0)];
    await t.waitFor(() => endpoint.posts.filter((p) => p.status === 503).length >= 2, 'two refused tries');
    endpoint.answer = undefined;
    const after = post('after', 1);
    await t.waitFor(() => endpoint.accepted().length >= 4, 'every delivery');
    t.child.kill('SIGINT');
    await t.exit;
    expect(endpoint.accepted().map((p) => p.body.data.id)).toEqual([...sent, after]);
    expect(endpoint.duplicates()).toEqual([]);
    // Each try of the first event carried its id; the retries are said on stderr.
    const tries = endpoint.posts.filter((p) => p.body.data.id === sent[0]);
    expect(new Set(tries.map((p) => p.eventId)).size).toBe(1);
    expect(tries.map((p) => p.status)).toEqual([...tries.slice(0, -1).map(() => 503), 204]);
    expect(t.stderr()).toMatch(/the endpoint answered 503; trying again in 1s/);
  }, 60_000);

  it('a 4xx other than 408 and 429 is said on stderr and skipped; the next event goes on', async () => {
    const endpoint = await receiver();
    const t = tail(['--forward-to', endpoint.url, '--timeout', '30', '--quiet'], {
      CLINIC_FORWARD_SECRET: SECRET,
    });
    await t.waitFor(() => world.sandbox.realtimeClients().length > 0, 'the connection');
    await new Promise((resolve) => setTimeout(resolve, 500));
    endpoint.answer = 422;
    const refused = post('refused', 0);
    await t.waitFor(() => endpoint.posts.length >= 1, 'the refused try');
    endpoint.answer = undefined;
    const next = post('next', 0);
    await t.waitFor(() => endpoint.accepted().length >= 1, 'the next delivery');
    t.child.kill('SIGINT');
    await t.exit;
    expect(endpoint.posts.map((p) => [p.body.data.id, p.status])).toEqual([
      [refused, 422],
      [next, 204],
    ]);
    // Said even with --quiet: an event the endpoint will never have.
    expect(t.stderr()).toContain(
      `refused ChatLogCreated.1.${conversations()[0]}.${refused} with HTTP 422; skipped`,
    );
  });

  /** A plain-http server on 127.0.0.1, addressed with https://: every try fails its TLS handshake. */
  async function plainHttpEndpoint(): Promise<{ url: string; connections: () => number }> {
    let connections = 0;
    const server = createServer((request, response) => response.end());
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    runs.closing.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    return {
      url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
      connections: () => connections,
    };
  }
  const SAID_ONCE = (url: string, words: string) =>
    `warning: forwarding to ${url}: ${words}; events wait, tried again until it works`;

  it.each([
    ['https:// to a plain-http server', plainHttpEndpoint, 'TLS handshake failed (is it http?)'],
    [
      'a host name that does not resolve',
      async () => ({ url: 'https://clinic-forward-test.invalid/hook', connections: () => Infinity }),
      'host not found: clinic-forward-test.invalid',
    ],
  ])(
    '%s, with --quiet (the service recipe): said at once in one line, not once a retry; SIGTERM ends it (exit 0)',
    async (_what, start, words) => {
      const endpoint = await start();
      // --quiet says nothing of the subscription: the sandbox shows a new client on the channel.
      const listening = () =>
        world.sandbox
          .realtimeClients()
          .filter((client) => client.channels.includes('private-chat-log.1'))
          .map((client) => client.socketId);
      const before = new Set(listening());
      const t = tail(['--forward-to', endpoint.url, '--quiet'], { CLINIC_FORWARD_SECRET: SECRET });
      await t.waitFor(() => listening().some((id) => !before.has(id)), 'the subscription');
      post('never delivered', 0);
      await t.waitFor(() => t.stderr().includes(words), 'the failure said');
      // Tries at 0, 1 and 3 s: two more after the first, none of them said again.
      await new Promise((resolve) => setTimeout(resolve, 3500));
      expect(endpoint.connections()).toBeGreaterThanOrEqual(3);
      t.child.kill('SIGTERM');
      expect(await t.exit).toBe(0);
      expect(t.stderr().trim().split('\n')).toEqual([
        SAID_ONCE(endpoint.url, words),
        '1 event was not forwarded: the tail ended before the endpoint accepted it',
      ]);
    },
  );

  it("without --quiet, each retry of a TLS failure is one readable line, none of OpenSSL's text", async () => {
    const endpoint = await plainHttpEndpoint();
    const t = tail(['--forward-to', endpoint.url], { CLINIC_FORWARD_SECRET: SECRET });
    await connected(t);
    const id = post('never delivered', 0);
    await t.waitFor(() => /trying again in 2s/.test(t.stderr()), 'two retries');
    t.child.kill('SIGINT');
    expect(await t.exit).toBe(130);
    const origin = new URL(endpoint.url).origin;
    const retry = (wait: number) =>
      `ChatLogCreated.1.${conversations()[0]}.${id}: cannot reach ${origin}: TLS handshake failed (is it http?); trying again in ${wait}s`;
    const lines = t.stderr().trim().split('\n');
    expect(lines).toContain(retry(1));
    expect(lines).toContain(retry(2));
    expect(lines.filter((line) => line.includes('TLS handshake'))).toEqual([
      retry(1),
      SAID_ONCE(endpoint.url, 'TLS handshake failed (is it http?)'),
      retry(2),
    ]);
    expect(t.stderr()).not.toMatch(/SSL routines|EPROTO|openssl/);
  });

  it.each([
    ['http://helpdesk.example.com/hooks', /must use https/],
    ['ftp://127.0.0.1/x', /http or https address/],
  ])('--forward-to %s is refused before anything is sent: exit 2, one line', async (url, message) => {
    world.newRequests();
    const t = tail(['--forward-to', url]);
    expect(await t.exit).toBe(2);
    expect(t.stderr()).toMatch(message);
    expect(t.stderr().trim().split('\n')).toHaveLength(1);
    expect(world.newRequests()).toEqual([]);
  });

  it('a generated secret is printed once, kept beside the checkpoint (0600), and signs again after a restart', async () => {
    const endpoint = await receiver('');
    const checkpoint = join(dir.path, 'generated.checkpoint');
    const first = tail([
      '--forward-to',
      endpoint.url,
      '--checkpoint',
      checkpoint,
      '--timeout',
      '30',
      '--quiet',
    ]);
    await first.waitFor(() => /forward secret: whsec_[0-9a-f]{64}/.test(first.stderr()), 'the secret');
    const secret = /forward secret: (whsec_[0-9a-f]{64})/.exec(first.stderr())![1]!;
    expect(first.stderr()).toContain(`kept in ${checkpoint}.secret`);
    expect((await stat(`${checkpoint}.secret`)).mode & 0o777).toBe(0o600);
    endpoint.secret = secret;
    await crash(first);
    const second = tail(['--forward-to', endpoint.url, '--checkpoint', checkpoint, '--timeout', '30']);
    await connected(second);
    expect(second.stderr()).not.toContain(secret);
    expect(second.stderr()).toContain(`signing with the forward secret kept in ${checkpoint}.secret`);
    const id = post('signed after a restart', 1);
    await second.waitFor(() => endpoint.accepted().some((p) => p.body.data.id === id), 'the delivery');
    second.child.kill('SIGINT');
    await second.exit;
    expect(endpoint.accepted().every((p) => p.verified)).toBe(true);
  }, 45_000);
});

describe('chat tail --checkpoint', () => {
  it('a printing tail killed with SIGKILL and started at once prints what was created while it was down', async () => {
    const checkpoint = join(dir.path, 'printing.checkpoint');
    const [a, b] = conversations();
    const first = tail(['--checkpoint', checkpoint, '-o', 'ndjson']);
    await connected(first);
    const before = [post('before 1', 0), post('before 2', 1)];
    await first.waitFor(() => first.lines.length >= 2, 'the first two');
    // Everything printed is recorded before the crash: so nothing is printed twice after it.
    for (let i = 0; !(await checkpointed(checkpoint, b, before[1]!)) && i < 200; i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    await crash(first);
    expect((await stat(checkpoint)).mode & 0o777).toBe(0o600);
    const down = [post('down 1', 0), post('down 2', 1), post('down 3', 0), post('down 4', 1)];
    // Started again at once: the killed tail's lock is stale within seconds, and is then taken over.
    const second = tail(['--checkpoint', checkpoint, '-o', 'ndjson']);
    await connected(second);
    await second.waitFor(() => second.lines.length >= 4, 'the missed messages');
    const live = post('live again', 0);
    await second.waitFor(() => printedIds(second).includes(live), 'the live message');
    second.child.kill('SIGINT');
    expect(await second.exit).toBe(130);
    expect(printedIds(first)).toEqual(before);
    const sources = second.lines.map((line) => JSON.parse(line).source);
    // The missed ones first (from REST, each conversation in id order), then the live one.
    expect(
      printedIds(second)
        .slice(0, 4)
        .sort((x, y) => x - y),
    ).toEqual(down);
    expect(printedIds(second)[4]).toBe(live);
    for (const conversation of [a, b]) {
      const ids = second.lines
        .map((line) => JSON.parse(line).data)
        .filter((data) => data.conversation_id === conversation)
        .map((data) => data.id as number);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
    }
    expect(sources).toEqual(['rest', 'rest', 'rest', 'rest', 'realtime']);
    expect(second.stderr()).toContain('filled 4 missed messages (from the checkpoint)');
    expect(await positions(checkpoint)).toEqual(
      new Map([
        [b, down[3]!],
        [a, live],
      ]),
    );
  }, 45_000);

  it('a forwarder killed while its endpoint was down delivers everything after a restart, each once', async () => {
    const endpoint = await receiver();
    const checkpoint = join(dir.path, 'forwarding.checkpoint');
    const [a] = conversations();
    const env = { CLINIC_FORWARD_SECRET: SECRET };
    const first = tail(['--forward-to', endpoint.url, '--checkpoint', checkpoint], env);
    await connected(first);
    const accepted = post('accepted', 0);
    await first.waitFor(() => endpoint.accepted().length >= 1, 'the first delivery');
    for (let i = 0; !(await checkpointed(checkpoint, a, accepted)) && i < 200; i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    endpoint.answer = 503;
    const refused = [post('while down 1', 0), post('while down 2', 1)];
    await first.waitFor(() => endpoint.posts.some((p) => p.status === 503), 'a refused try');
    // Only what the endpoint accepted is recorded; a conversation seen but not yet delivered, from before its first.
    expect((await positions(checkpoint)).get(a)).toBe(accepted);
    const [, b] = conversations();
    for (let i = 0; (await positions(checkpoint)).get(b) === undefined && i < 200; i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect((await positions(checkpoint)).get(b)).toBe(refused[1]! - 1);
    await crash(first);
    const whileKilled = [post('while killed 1', 1), post('while killed 2', 0)];
    endpoint.answer = undefined;
    const second = tail(['--forward-to', endpoint.url, '--checkpoint', checkpoint], env);
    await connected(second);
    const live = post('live again', 1);
    const all = [accepted, ...refused, ...whileKilled, live];
    await second.waitFor(
      () => all.every((id) => endpoint.accepted().some((p) => p.body.data.id === id)),
      'every message delivered',
    );
    second.child.kill('SIGINT');
    await second.exit;
    const delivered = endpoint.accepted().map((p) => p.body.data.id as number);
    expect([...delivered].sort((x, y) => x - y)).toEqual(all);
    expect(endpoint.duplicates()).toEqual([]);
    // In order per conversation.
    for (const conversation of conversations()) {
      const ids = endpoint
        .accepted()
        .filter((p) => p.body.data.conversation_id === conversation)
        .map((p) => p.body.data.id as number);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
    }
  }, 60_000);

  it('two tails on one checkpoint: the second is refused (exit 2), naming the file, before it connects', async () => {
    const checkpoint = join(dir.path, 'shared.checkpoint');
    const first = tail(['--checkpoint', checkpoint, '-o', 'ndjson']);
    await connected(first);
    const clients = world.sandbox.realtimeClients().length;
    world.newRequests();
    const second = tail(['--checkpoint', checkpoint, '-o', 'ndjson']);
    expect(await second.exit).toBe(2);
    // With -o ndjson the error is also written as a JSON object (the contract's), after its line.
    expect(second.stderr().split('\n')[0]).toBe(
      `error: ${checkpoint} is in use by another chat tail; each tail needs a --checkpoint file of its own`,
    );
    expect(world.sandbox.realtimeClients()).toHaveLength(clients);
    expect(world.newRequests().filter((r) => r.path.includes('broadcasting'))).toEqual([]);
    // The first goes on.
    const id = post('still here', 0);
    await first.waitFor(() => printedIds(first).includes(id), 'the first tail printing');
  }, 30_000);

  it('a checkpointed conversation that can no longer be read is named and dropped; the tail goes on', async () => {
    const checkpoint = join(dir.path, 'gone.checkpoint');
    const first = tail(['--checkpoint', checkpoint, '-o', 'ndjson']);
    await connected(first);
    first.child.kill('SIGINT');
    await first.exit;
    // As an erased conversation's entry is left: the API now answers 404 for it.
    const file = JSON.parse(await readFile(checkpoint, 'utf8'));
    file.conversations.push({ id: 999_999, after: 5 });
    await writeFile(checkpoint, JSON.stringify(file));
    const second = tail(['--checkpoint', checkpoint, '-o', 'ndjson']);
    await connected(second);
    await second.waitFor(
      () => second.stderr().includes('conversation 999999 can no longer be read'),
      'the note',
    );
    const live = post('still followed', 0);
    await second.waitFor(() => printedIds(second).includes(live), 'a live message after it');
    second.child.kill('SIGINT');
    expect(await second.exit).toBe(130);
    expect((await positions(checkpoint)).has(999_999)).toBe(false);
  }, 30_000);

  it('a checkpoint above the server for a conversation (one false id) does not silence it: the next message is printed and said, and the file goes back', async () => {
    const checkpoint = join(dir.path, 'ahead.checkpoint');
    const first = tail(['--checkpoint', checkpoint, '-o', 'ndjson']);
    await connected(first);
    first.child.kill('SIGINT');
    await first.exit;
    // As a run told a false id (2^53 - 1) by its server left it: far above any message the sandbox has.
    const conversation = conversations()[0];
    const file = JSON.parse(await readFile(checkpoint, 'utf8'));
    file.conversations.push({ id: conversation, after: Number.MAX_SAFE_INTEGER });
    await writeFile(checkpoint, JSON.stringify(file));
    const second = tail(['--checkpoint', checkpoint, '-o', 'ndjson']);
    await connected(second);
    const live = post('heard despite the checkpoint', 0);
    await second.waitFor(() => printedIds(second).includes(live), 'the new message');
    second.child.kill('SIGINT');
    expect(await second.exit).toBe(130);
    expect((await positions(checkpoint)).get(conversation)).toBe(live);
    expect(second.stderr()).toContain(
      `conversation ${conversation} resumed after message ${Number.MAX_SAFE_INTEGER}, but the server sent message ${live}`,
    );
  }, 30_000);

  it("another tenant's checkpoint is refused before anything connects: exit 2", async () => {
    const checkpoint = join(dir.path, 'tenant-1.checkpoint');
    const first = tail(['--checkpoint', checkpoint, '--timeout', '5', '-o', 'ndjson']);
    await connected(first);
    first.child.kill('SIGINT');
    await first.exit;
    const other = tail(['--tenant', '2', '--checkpoint', checkpoint, '-o', 'ndjson']);
    expect(await other.exit).toBe(2);
    expect(other.stderr()).toContain(`${checkpoint} is the checkpoint of tenant 1`);
  });
});
