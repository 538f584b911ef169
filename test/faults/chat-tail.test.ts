// Fault run: `clinic chat tail` (the real pusher-js) through a minute of WebSocket drops at 50 messages a second,
// with the REST faults on its authorizations and gap fills, prints every message exactly once, and each
// conversation's messages in id order.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, baseEnv, configureRealtime, exitStatus, startWorld, type TestWorld } from '../helpers/cli.js';
import { customerMessages } from '../helpers/customer-messages.js';
import { FAULT_SEED, REST_FAULTS, replayHint } from './fault-seed.js';

const RATE = 50;
const SECONDS = 60;
// Each second a one-in-five chance that every connection is cut; the REST faults strike the channel authorizations
// and the gap fills that follow each reconnect.
const FAULTS = `ws-drop=0.2,${REST_FAULTS}`;
let world: TestWorld;
beforeAll(async () => {
  world = await startWorld({ seed: FAULT_SEED, erasureStepSeconds: 0 });
  await configureRealtime(world);
});
afterAll(() => world?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('a minute of WebSocket drops at 50 messages/s: every message printed once, in order per conversation', async () => {
  // Not the first conversation: its AI assistant would answer every message with messages of its own.
  const conversations = world.sandbox.fixtures.tenants[1]!.conversations.slice(1);
  const child = spawn(process.execPath, [BIN, '--profile', 'sandbox', 'chat', 'tail', '-o', 'ndjson'], {
    env: baseEnv(world.configDir) as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const printed: { id: number; conversation: number; source: string }[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const { data, source } = JSON.parse(line);
    printed.push({ id: data.id, conversation: data.conversation_id, source });
  });
  let exited = false;
  const exit = exitStatus(child).finally(() => (exited = true));
  const until = async (done: () => boolean, what: string, ms: number) => {
    for (const deadline = Date.now() + ms; !done(); await sleep(50)) {
      if (exited) throw new Error(replayHint(`chat tail ended before ${what}; stderr: ${stderr}`));
      if (Date.now() > deadline)
        throw new Error(replayHint(`timed out waiting for ${what}; stderr: ${stderr}`));
    }
  };
  await until(() => stderr.includes('connected'), 'the subscription', 15_000);

  const { sent, post } = customerMessages(world, conversations, 'fault');
  // The tail fills the gaps of the conversations it has seen: one message in each before the drops begin.
  conversations.forEach((_, i) => post(i));
  await until(() => printed.length >= conversations.length, 'the first messages', 10_000);

  world.sandbox.setFaults(FAULTS);
  const start = performance.now();
  for (let i = conversations.length; i < conversations.length + RATE * SECONDS; i++) {
    const wait = start + ((i - conversations.length) * 1000) / RATE - performance.now();
    if (wait > 1) await sleep(wait);
    post(i);
  }
  world.sandbox.setFaults(undefined);
  const last = sent.at(-1);
  await until(() => printed.some((p) => p.id === last), 'the last message', 60_000);
  await sleep(1000); // anything printed twice would show by now
  child.kill('SIGINT');
  expect(await exit).toBe(130);

  const reconnects = stderr.split('\n').filter((line) => /reconnect/i.test(line)).length;
  const fromRest = printed.filter((p) => p.source === 'rest').length;
  console.log(
    `chat tail under drops: ${sent.length} sent, ${printed.length} printed, ${fromRest} from REST, ` +
      `${reconnects} reconnect lines, seed ${FAULT_SEED}`,
  );
  expect(reconnects, 'the drops did strike').toBeGreaterThan(3);
  expect(
    printed.map((p) => p.id).sort((a, b) => a - b),
    replayHint('each once'),
  ).toEqual(sent);
  for (const conversation of conversations) {
    const ids = printed.filter((p) => p.conversation === conversation).map((p) => p.id);
    expect(ids, replayHint(`conversation ${conversation} in order`)).toEqual([...ids].sort((a, b) => a - b));
  }
}, 180_000);
