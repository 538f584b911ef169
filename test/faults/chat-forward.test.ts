// Fault run: `clinic chat tail --forward-to --checkpoint` as a service under everything at once: messages created
// at 20 a second, WebSocket drops and REST faults on its fills, an endpoint that goes down (503) now and then, and the
// forwarder killed with SIGKILL three times and started again at once. Every message is delivered, signed, in order
// per conversation; what comes twice was delivered before a kill (at least once, never lost).
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, baseEnv, configureRealtime, startWorld, tempDir, type TestWorld } from '../helpers/cli.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { customerMessages } from '../helpers/customer-messages.js';
import { FAULT_SEED, REST_FAULTS, replayHint } from './fault-seed.js';

const RATE = 20;
const SECONDS = 40;
const KILLS_AT_S = [8, 18, 28];
const SECRET = 'whsec_fault_run';
let world: TestWorld;
let endpoint: WebhookReceiver;
beforeAll(async () => {
  world = await startWorld({ seed: FAULT_SEED, erasureStepSeconds: 0, faults: `ws-drop=0.1,${REST_FAULTS}` });
  await configureRealtime(world);
  endpoint = await startWebhookReceiver(SECRET);
});
afterAll(async () => {
  await endpoint?.close();
  await world?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A small seeded generator, so the endpoint's outages replay with the seed too. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

it('a forwarder under drops, REST faults, outages and three SIGKILLs delivers every message, signed and in order', async () => {
  const checkpoint = join(await tempDir('clinic-forward-faults-'), 'chat.checkpoint');
  let stderr = '';
  const start = (): ChildProcess => {
    const child = spawn(
      process.execPath,
      [BIN, '--profile', 'sandbox', 'chat', 'tail', '--forward-to', endpoint.url, '--checkpoint', checkpoint],
      {
        env: { ...baseEnv(world.configDir), CLINIC_FORWARD_SECRET: SECRET } as NodeJS.ProcessEnv,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    return child;
  };
  const until = async (done: () => boolean, what: string, ms: number) => {
    for (const deadline = Date.now() + ms; !done(); await sleep(50))
      if (Date.now() > deadline)
        throw new Error(replayHint(`timed out waiting for ${what}; stderr: ${stderr}`));
  };
  // Not the first conversation: its AI assistant would answer every message with messages of its own.
  const conversations = world.sandbox.fixtures.tenants[1]!.conversations.slice(1, 4);
  const { sent, post } = customerMessages(world, conversations, 'forward fault');
  const delivered = () => new Set(endpoint.accepted().map((p) => p.body.data.id as number));

  let tail = start();
  await until(() => stderr.includes('listening on'), 'the subscription', 15_000);
  // The forwarder knows a conversation from the first message it sees there.
  conversations.forEach((_, i) => post(i));
  await until(() => sent.every((id) => delivered().has(id)), 'the first messages', 15_000);

  const draw = random(FAULT_SEED);
  const deliveredBeforeKills = new Set<string>();
  let kills = 0;
  const started = Date.now();
  for (let i = conversations.length; Date.now() - started < SECONDS * 1000; i++) {
    post(i);
    const second = Math.floor((Date.now() - started) / 1000);
    // Each second, a three-in-ten chance that the endpoint is down for that second.
    if (i % RATE === 0) endpoint.answer = draw() < 0.3 ? 503 : undefined;
    if (kills < KILLS_AT_S.length && second >= KILLS_AT_S[kills]!) {
      tail.kill('SIGKILL');
      await new Promise((resolve) => tail.once('exit', resolve));
      // What reached the endpoint before the kill, a POST cut off by it included (its answer never read).
      await sleep(200);
      for (const post of endpoint.accepted()) deliveredBeforeKills.add(post.eventId);
      kills++;
      tail = start(); // at once: the killed tail's lock goes stale within seconds
    }
    await sleep(1000 / RATE);
  }
  endpoint.answer = undefined;
  await until(() => sent.every((id) => delivered().has(id)), 'every message delivered', 120_000);
  await sleep(500); // anything delivered twice would show by now
  tail.kill('SIGINT');
  await new Promise((resolve) => tail.once('exit', resolve));

  const accepted = endpoint.accepted();
  const ours = new Set(sent);
  const first = new Map<number, (typeof accepted)[number]>();
  for (const post of accepted)
    if (!first.has(post.body.data.id as number)) first.set(post.body.data.id as number, post);
  const duplicates = endpoint.duplicates();
  console.log(
    `chat forward under faults: ${sent.length} messages created, ${[...first.keys()].filter((id) => ours.has(id)).length} ` +
      `delivered (${[...first.values()].filter((p) => p.body.source === 'rest').length} of all events from REST), ` +
      `${duplicates.length} delivered twice, ${kills} SIGKILLs, ` +
      `${endpoint.posts.filter((p) => p.status === 503).length} tries answered 503; ${Math.round((Date.now() - started) / 1000)} s`,
  );
  expect(
    endpoint.posts.every((p) => p.verified),
    replayHint('a signature did not verify'),
  ).toBe(true);
  for (const id of sent) expect(first.has(id), replayHint(`message ${id} never delivered`)).toBe(true);
  // At least once: what came twice had been delivered before a kill (its checkpoint write, or its POST's answer, lost).
  for (const twice of duplicates) expect(deliveredBeforeKills, replayHint(`${twice} twice`)).toContain(twice);
  // In order per conversation (first deliveries).
  for (const conversation of conversations) {
    const ids = [...first.values()]
      .filter((p) => p.body.data.conversation_id === conversation)
      .map((p) => p.body.data.id as number);
    expect(ids, replayHint(`conversation ${conversation} out of order`)).toEqual(
      [...ids].sort((a, b) => a - b),
    );
  }
});
