// chat tail under load: event-to-stdout latency at 200 events/s, beside a minimal subscriber (chat-subscriber.mjs)
// receiving the same messages from the same server at the same time; and what a 5 s outage at that rate loses.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../dist/sandbox/index.js';

const SUBSCRIBER = fileURLToPath(new URL('./chat-subscriber.mjs', import.meta.url));

const RATE = 200;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

/** Posts `RATE` messages a second for `seconds`, on schedule, calling `during(elapsedMs)` as it goes. */
async function postAtRate(sandbox, seconds, sentAt, during = () => {}) {
  const conversations = sandbox.fixtures.tenants[1].conversations.slice(1); // the first has the assistant on
  const start = performance.now();
  for (let i = 0; i < RATE * seconds; i++) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    during(performance.now() - start);
    const log = sandbox.postMessage({
      tenantId: 1,
      conversationId: conversations[i % conversations.length],
      body: `bench ${i}`,
      senderType: 'customer',
    });
    sentAt.set(log.id, performance.now());
  }
}

export async function chatBench(bin) {
  const sandbox = await startSandbox({ port: 0, rateLimit: 0, erasureStepSeconds: 0 });
  const configDir = mkdtempSync(join(tmpdir(), 'clinic-chat-bench-'));
  const { info } = sandbox;
  const env = {
    ...process.env,
    CLINIC_CONFIG_DIR: configDir,
    CLINIC_TOKEN: info.token,
    CLINIC_BASE_URL: info.base_url,
    CLINIC_TENANT: '1',
    CLINIC_REALTIME_KEY: info.realtime.key,
    CLINIC_REALTIME_HOST: info.realtime.host,
    CLINIC_REALTIME_PORT: String(info.realtime.port),
    CLINIC_REALTIME_TLS: 'false',
    NO_COLOR: '1',
  };
  const child = spawn(process.execPath, [bin, 'chat', 'tail', '-o', 'ndjson'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const printed = new Map(); // id → times printed
  const latencies = [];
  const sentAt = new Map();
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const { data } = JSON.parse(line);
    printed.set(data.id, (printed.get(data.id) ?? 0) + 1);
    const sent = sentAt.get(data.id);
    if (sent !== undefined && !outage) latencies.push(performance.now() - sent);
  });
  // The baseline, on the same messages: its own latencies, printed by its own process.
  const subscriber = spawn(process.execPath, [SUBSCRIBER], {
    env: {
      ...process.env,
      BASE_URL: info.base_url,
      TOKEN: info.token,
      TENANT: '1',
      REALTIME_HOST: info.realtime.host,
      REALTIME_PORT: String(info.realtime.port),
      REALTIME_KEY: info.realtime.key,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const baseLatencies = [];
  let subscribed = '';
  subscriber.stderr.on('data', (chunk) => (subscribed += chunk));
  createInterface({ input: subscriber.stdout }).on('line', (line) => {
    const sent = sentAt.get(JSON.parse(line).data.id);
    if (sent !== undefined && !outage) baseLatencies.push(performance.now() - sent);
  });
  let outage = false;
  try {
    for (let i = 0; i < 100 && !stderr.includes('connected'); i++) await sleep(100);
    for (let i = 0; i < 100 && !subscribed.includes('subscribed'); i++) await sleep(100);
    if (!subscribed.includes('subscribed')) throw new Error(`the baseline subscriber: ${subscribed}`);
    // 1. Latency: 10 s at 200 events/s.
    await postAtRate(sandbox, 10, sentAt);
    await sleep(1000);
    const delivered = [...sentAt.keys()].filter((id) => printed.has(id)).length;
    const baseline = {
      delivered: baseLatencies.length,
      p50: percentile(baseLatencies, 0.5),
      p99: percentile(baseLatencies, 0.99),
    };
    subscriber.kill('SIGTERM'); // it does not recover from the outage; only clinic is measured there
    // 2. A 5 s outage in the middle of 12 s at 200 events/s.
    outage = true;
    const outageIds = new Map();
    let blocked = false;
    await postAtRate(sandbox, 12, outageIds, (elapsed) => {
      if (!blocked && elapsed > 3000) {
        blocked = true;
        sandbox.blockRealtime(5000);
      }
    });
    for (let i = 0; i < 300 && [...outageIds.keys()].some((id) => !printed.has(id)); i++) await sleep(100);
    const recovered = [...outageIds.keys()].filter((id) => printed.has(id)).length;
    const twice = [...printed.values()].filter((n) => n > 1).length;
    return {
      sent: sentAt.size,
      delivered,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      baseline,
      outageSent: outageIds.size,
      recovered,
      twice,
      filled: /filled (\d+) missed/.exec(stderr)?.[1],
    };
  } finally {
    subscriber.kill('SIGTERM');
    child.kill('SIGINT');
    await new Promise((resolve) => child.once('exit', resolve));
    await sandbox.close();
    rmSync(configDir, { recursive: true, force: true });
  }
}
