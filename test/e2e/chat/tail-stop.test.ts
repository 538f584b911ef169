// `chat tail` stopped as a service is (`systemctl stop` sends SIGTERM): a normal end, exit 0, with what was delivered
// printed and checkpointed and nothing alarming said; Ctrl-C (SIGINT) stays an interruption (exit 130), and other
// commands keep SIGTERM as an interruption too.
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv, exitStatus } from '../../helpers/cli.js';
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
const dir = useTempDir('clinic-tail-stop-');
const SECRET = 'whsec_e2e_secret';

const runs = useTailRuns(world);

/** Realtime clients subscribed to tenant 1's chat channel: their socket ids. */
const listening = () =>
  world.sandbox
    .realtimeClients()
    .filter((client) => client.channels.includes('private-chat-log.1'))
    .map((client) => client.socketId);

/** A tail, and a wait for its subscription: a new client on the channel (--quiet says nothing of it). */
function tail(args: string[], env: Record<string, string> = {}): Tail & { connected(): Promise<void> } {
  const before = new Set(listening());
  const t = runs.tail(args, env);
  return Object.assign(t, {
    connected: () => t.waitFor(() => listening().some((id) => !before.has(id)), 'the subscription'),
  });
}

const receiver = () => runs.receiver(SECRET);

const conversations = () => tailConversations(world);
const post = (body: string, i = 0) => postPatientMessage(world, body, i);
const positions = checkpointPositions;
/** Exits within `ms` (the forced exit of a stop that hangs comes after 5 s): its code. */
async function exitWithin(t: Tail, ms: number): Promise<number | null | 'still running'> {
  return Promise.race([
    t.exit,
    new Promise<'still running'>((resolve) => setTimeout(resolve, ms, 'still running')),
  ]);
}
const lockGone = (checkpoint: string) =>
  stat(`${checkpoint}.lock`).then(
    () => false,
    () => true,
  );

describe('chat tail stopped with SIGTERM (systemctl stop)', () => {
  it('a printing tail with --checkpoint: exit 0, everything printed is checkpointed, the lock let go, no error', async () => {
    const checkpoint = join(dir.path, 'printing.checkpoint');
    const [a, b] = conversations();
    const t = tail(['--checkpoint', checkpoint, '-o', 'ndjson']);
    await t.connected();
    const sent = [post('one', 0), post('two', 1), post('three', 0)];
    await t.waitFor(() => t.lines.length >= 3, 'three events');
    t.child.kill('SIGTERM');
    expect(await exitWithin(t, 4000)).toBe(0);
    expect(printedIds(t)).toEqual(sent);
    expect(await positions(checkpoint)).toEqual(
      new Map([
        [b, sent[1]!],
        [a, sent[2]!],
      ]),
    );
    expect(await lockGone(checkpoint)).toBe(true);
    expect(t.stderr()).not.toMatch(/error|interrupted/);
    expect(t.stderr().trim().split('\n').at(-1)).toBe('stopped (SIGTERM)');
  });

  it('without --checkpoint, and with --quiet: exit 0 and nothing at all on stderr', async () => {
    const t = tail(['-o', 'ndjson', '--quiet']);
    await t.connected();
    const id = post('quiet one', 0);
    await t.waitFor(() => printedIds(t).includes(id), 'the event');
    t.child.kill('SIGTERM');
    expect(await exitWithin(t, 4000)).toBe(0);
    expect(printedIds(t)).toEqual([id]);
    expect(t.stderr()).toBe('');
  });

  it('a forwarding tail with --checkpoint: exit 0, what the endpoint accepted is checkpointed', async () => {
    const endpoint = await receiver();
    const checkpoint = join(dir.path, 'forwarding.checkpoint');
    const [a, b] = conversations();
    const t = tail(['--forward-to', endpoint.url, '--checkpoint', checkpoint, '--quiet'], {
      CLINIC_FORWARD_SECRET: SECRET,
    });
    await t.connected();
    const sent = [post('forwarded 1', 0), post('forwarded 2', 1)];
    await t.waitFor(() => endpoint.accepted().length >= 2, 'two deliveries');
    t.child.kill('SIGTERM');
    expect(await exitWithin(t, 4000)).toBe(0);
    expect(endpoint.accepted().map((p) => p.body.data.id)).toEqual(sent);
    expect(await positions(checkpoint)).toEqual(
      new Map([
        [a, sent[0]!],
        [b, sent[1]!],
      ]),
    );
    expect(t.stderr()).toBe('');
  });

  it('a forwarding tail whose endpoint is down: exit 0 at once; the event in hand is not checkpointed, and said', async () => {
    const endpoint = await receiver();
    const checkpoint = join(dir.path, 'down.checkpoint');
    const [a] = conversations();
    const t = tail(['--forward-to', endpoint.url, '--checkpoint', checkpoint], {
      CLINIC_FORWARD_SECRET: SECRET,
    });
    await t.connected();
    const accepted = post('accepted', 0);
    await t.waitFor(() => endpoint.accepted().length >= 1, 'the first delivery');
    endpoint.answer = 503;
    post('while down', 0);
    await t.waitFor(() => endpoint.posts.some((p) => p.status === 503), 'a refused try');
    t.child.kill('SIGTERM');
    expect(await exitWithin(t, 4000)).toBe(0);
    expect((await positions(checkpoint)).get(a)).toBe(accepted);
    expect(t.stderr()).not.toMatch(/error|interrupted/);
    expect(t.stderr()).toContain('stopped (SIGTERM)');
    expect(t.stderr()).toContain('1 event was not forwarded');
  });

  it('Ctrl-C (SIGINT) is still an interruption: exit 130', async () => {
    const t = tail(['-o', 'ndjson']);
    await t.connected();
    t.child.kill('SIGINT');
    expect(await exitWithin(t, 4000)).toBe(130);
    expect(t.stderr()).toContain('error: interrupted');
    expect(t.stderr()).not.toContain('stopped (SIGTERM)');
  });

  it('another command stopped with SIGTERM is still interrupted: exit 130', async () => {
    world.sandbox.setRateLimit(2);
    try {
      // Two requests use the window; the third waits for the reset (a minute away).
      const child = spawn(
        process.execPath,
        [BIN, '--profile', 'sandbox', 'customers', 'list', '--all', '--per-page', '1', '-o', 'ndjson'],
        { env: baseEnv(world.configDir) as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const exited = exitStatus(child);
      for (let i = 0; i < 200 && !/rate-limit window/.test(stderr); i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stderr).toMatch(/rate-limit window/);
      child.kill('SIGTERM');
      expect(await exited).toBe(130);
      expect(stderr).toContain('error: interrupted');
    } finally {
      world.sandbox.setRateLimit(0);
    }
  });
});
