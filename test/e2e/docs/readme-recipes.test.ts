// The README's recipes, run as written (taken from README.md, not copied here) in a real shell against a sandbox, with
// `clinic` on PATH: so the README never lies.
import { spawn } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  baseEnv,
  type CliResult,
  collectOutput,
  configureRealtime,
  realtimeEnv,
  startWorld,
  type TestWorld,
  tempDir,
} from '../../helpers/cli.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';

const README = new URL('../../../README.md', import.meta.url);

/** The sh block after `<!-- recipe: NAME -->`. */
async function recipe(name: string): Promise<string> {
  const text = await readFile(README, 'utf8');
  const match = new RegExp(`<!-- recipe: ${name} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(text);
  if (!match?.[1]) throw new Error(`README.md has no recipe '${name}'`);
  return match[1];
}

/** A folder holding a `clinic` that runs this checkout's bin/clinic.js, as `npm link` would. */
async function clinicOnPath(): Promise<string> {
  const dir = await tempDir('clinic-path-');
  const wrapper = join(dir, 'clinic');
  await writeFile(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await chmod(wrapper, 0o755);
  // The bulk recipe's "crash half-way" (`timeout -s KILL 2 clinic ...`), made independent of the machine's speed: on
  // a loaded machine two seconds can pass before the 5,000 rows are checked and the journal exists. This `timeout`
  // kills once the journal shows a request sent, which is what the recipe means.
  const timeout = join(dir, 'timeout');
  await writeFile(
    timeout,
    [
      '#!/bin/sh',
      '[ "$1 $2" = "-s KILL" ] || exec /usr/bin/timeout "$@"',
      'shift 3',
      '"$@" & pid=$!',
      'until ! kill -0 $pid 2>/dev/null || grep -qs \'"sending"\' ./*.journal; do sleep 0.05; done',
      'sleep 0.5; kill -9 $pid 2>/dev/null; wait $pid',
      '',
    ].join('\n'),
  );
  await chmod(timeout, 0o755);
  return dir;
}

function shell(
  script: string,
  options: { cwd: string; env: Record<string, string | undefined> },
): Promise<CliResult> {
  const env = Object.fromEntries(
    Object.entries(options.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const child = spawn('bash', ['--noprofile', '--norc', '-c', script], { cwd: options.cwd, env });
  const result = collectOutput(child);
  child.stdin.end();
  return result;
}

let world: TestWorld;
let pathDir: string;

beforeAll(async () => {
  world = await startWorld({ records: 300, chatter: 5 });
  await configureRealtime(world);
  pathDir = await clinicOnPath();
});
afterAll(async () => world?.close());

const envWith = (extra: Record<string, string | undefined>) => ({
  ...baseEnv(world.configDir),
  PATH: `${pathDir}:${process.env.PATH}`,
  ...extra,
});

describe('README recipes', () => {
  it('nightly export: every customer of the tenant lands in one CSV file, and a failed run leaves none', async () => {
    const work = await tempDir('clinic-recipe-');
    const exports = join(work, 'exports');
    await mkdir(exports);
    await writeFile(join(work, 'token'), world.sandbox.info.token, { mode: 0o600 });
    const script = await recipe('nightly-export');
    const env = envWith({
      // A cron job has no profile: only what the script exports.
      CLINIC_CONFIG_DIR: join(work, 'empty-config'),
      CLINIC_BASE_URL: world.sandbox.info.base_url,
      CLINIC_TENANT: '1',
      TOKEN_FILE: join(work, 'token'),
      EXPORT_DIR: exports,
    });
    // The server refuses some pages (429): the export retries them, and --quiet keeps that off stderr.
    world.sandbox.setFaults('429=0.5');
    const run = await shell(script, { cwd: work, env }).finally(() => world.sandbox.setFaults(undefined));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [name, ...others] = await readdir(exports);
    expect(others).toEqual([]);
    expect(name).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parse(await readFile(join(exports, name!), 'utf8'), { columns: true }) as { id: string }[];
    // What the server holds for tenant 1, asked directly.
    const answer = await fetch(`${world.sandbox.info.base_url}/v1/customers?per_page=1`, {
      headers: {
        authorization: `Bearer ${world.sandbox.info.token}`,
        'x-tenant': '1',
        accept: 'application/json',
      },
    });
    const total = ((await answer.json()) as { meta: { total: number } }).meta.total;
    expect(rows.length).toBe(total);
    expect(new Set(rows.map((row) => row.id)).size).toBe(total);

    await writeFile(join(work, 'token'), 'revoked-token');
    const failed = await shell(script, { cwd: work, env });
    expect(failed.code).toBe(3);
    expect(failed.stderr).toMatch(/^error: .*\n/);
    expect(await readdir(exports)).toEqual([name]); // no half file, under any name
  });

  it('bulk notes: a run killed half-way, then --resume, gives every row one result and sends none twice', async () => {
    const work = await tempDir('clinic-recipe-');
    const leads = world.sandbox.fixtures.tenants[1]!.leads;
    const writable = [leads.unassigned, leads.assignedToSalesperson, leads.assignedToAnotherUser];
    const count = 5000;
    const rows = Array.from(
      { length: count },
      (_, i) => `${writable[i % writable.length]},"Called back (${i + 1}), books next week"`,
    );
    await writeFile(join(work, 'notes.csv'), `lead_id,content\n${rows.join('\n')}\n`);
    world.newRequests();
    const run = await shell(await recipe('bulk-notes'), { cwd: work, env: envWith({}) });
    expect(run.code).toBe(0); // the last command of the recipe: jq
    expect(run.stdout.startsWith('lead_id,content\n')).toBe(true);

    const results = (await readFile(join(work, 'results.ndjson'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { line: number; status: string; id?: number });
    expect(results.map((result) => result.line)).toEqual(Array.from({ length: count }, (_, i) => i + 2));
    const ok = results.filter((result) => result.status === 'ok');
    const unknown = results.filter((result) => result.status === 'unknown');
    expect(ok.length + unknown.length).toBe(count);
    expect(new Set(ok.map((result) => result.id)).size).toBe(ok.length);
    // The lines jq printed are exactly the rows that were not ok.
    expect(run.stdout.split('\n').filter((line) => line.startsWith('{'))).toHaveLength(unknown.length);
    const posts = world
      .newRequests()
      .filter((r) => r.method === 'POST' && /^\/api\/v1\/leads\/\d+\/notes$/.test(r.path));
    expect(posts.length).toBeGreaterThanOrEqual(ok.length);
    expect(posts.length).toBeLessThanOrEqual(count);
  }, 90_000); // 5,000 rows sent twice over (a killed run, then --resume): 18 s on a quiet 2-core machine

  it('chat forward: the service killed and started again delivers every message of its conversations, signed', async () => {
    const work = await tempDir('clinic-recipe-');
    const script = join(work, 'clinic-chat-forward');
    await writeFile(script, await recipe('chat-forward'), { mode: 0o755 });
    await mkdir(join(work, 'credentials'));
    await writeFile(join(work, 'credentials', 'clinic-token'), world.sandbox.info.token, { mode: 0o600 });
    const endpoint = await startWebhookReceiver('whsec_recipe');
    const { info } = world.sandbox;
    // What the unit's EnvironmentFile, StateDirectory= and LoadCredential= give the script.
    const env = envWith({
      CLINIC_BASE_URL: info.base_url,
      CLINIC_TENANT: '1',
      ...realtimeEnv(world.sandbox),
      HELPDESK_URL: endpoint.url,
      CLINIC_FORWARD_SECRET: 'whsec_recipe',
      STATE_DIRECTORY: join(work, 'state'),
      CREDENTIALS_DIRECTORY: join(work, 'credentials'),
    });
    const listening = () =>
      world.sandbox.realtimeClients().filter((c) => c.channels.includes('private-chat-log.1')).length;
    const eventually = async (done: () => boolean, what: string) => {
      for (const deadline = Date.now() + 30_000; !done(); await new Promise((r) => setTimeout(r, 50)))
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    };
    const start = () => {
      const child = spawn('sh', [script], { cwd: work, env: env as NodeJS.ProcessEnv });
      return { child, result: collectOutput(child) };
    };
    // Not the first conversation: its AI assistant answers every message with messages of its own.
    const [a, b] = world.sandbox.fixtures.tenants[1]!.conversations.slice(1, 3) as [number, number];
    const post = (conversationId: number, body: string) =>
      world.sandbox.postMessage({ tenantId: 1, conversationId, body, senderType: 'customer' }).id;
    const delivered = (id: number) => endpoint.accepted().some((p) => p.body.data.id === id);
    try {
      const before = listening();
      const first = start();
      await eventually(() => listening() > before, 'the service listening');
      const seen = [post(a, 'first run a'), post(b, 'first run b')];
      await eventually(() => seen.every(delivered), 'the first run delivering');
      const acceptedBeforeKill = new Set(endpoint.accepted().map((p) => p.eventId));
      first.child.kill('SIGKILL'); // as a crash, or systemctl kill -s KILL
      const killed = await first.result;
      const down = [post(a, 'while down a'), post(b, 'while down b'), post(a, 'while down a 2')];
      const second = start(); // Restart=always
      await eventually(() => down.every(delivered), 'the restart delivering what came meanwhile');
      const live = post(b, 'live again');
      await eventually(() => delivered(live), 'the live message');
      second.child.kill('SIGTERM');
      await second.result;
      expect(killed.stdout).toBe('');
      expect(endpoint.posts.every((p) => p.verified)).toBe(true);
      // At least once: a message can come twice only when it was delivered before the kill (its checkpoint write
      // may not have landed), and then with the same Clinic-Event-Id.
      for (const twice of endpoint.duplicates()) expect(acceptedBeforeKill).toContain(twice);
      for (const conversation of [a, b]) {
        const ids = endpoint
          .accepted()
          .filter((p) => p.body.data.conversation_id === conversation)
          .map((p) => p.body.data.id as number);
        const unique = [...new Set(ids)];
        expect(unique).toEqual([...unique].sort((x, y) => x - y)); // in order per conversation
      }
      const checkpoint = JSON.parse(await readFile(join(work, 'state', 'chat.checkpoint'), 'utf8'));
      // Up to the live message at least: the sandbox's chatter (5 a second over its conversations) may add later ones.
      const kept = (checkpoint.conversations as { id: number; after: number }[]).find((c) => c.id === b);
      expect(kept?.after).toBeGreaterThanOrEqual(live);
    } finally {
      await endpoint.close();
    }
  }, 90_000);

  it('inspecting a tenant: doctor, account, failed erasure requests and a few seconds of live chat', async () => {
    const work = await tempDir('clinic-recipe-');
    const run = await shell(`set -e\n${await recipe('inspect-tenant')}`, { cwd: work, env: envWith({}) });
    expect(run.stderr).not.toMatch(/^error:/m);
    expect(run.code).toBe(0);
    // doctor's JSON document: every check ran, none failed.
    const doctor = JSON.parse(run.stdout.slice(0, run.stdout.indexOf('\n}\n') + 2)) as {
      ok: boolean;
      checks: { name: string; status: string }[];
    };
    expect(doctor.ok).toBe(true);
    expect(doctor.checks.map((check) => check.status)).not.toContain('skip');
    expect(run.stdout).toContain('dana.admin@clinic-sandbox.test');
    expect(run.stdout).toMatch(/failed/);
    // chat tail into a pipe: NDJSON lines of the sandbox's chatter.
    const events = run.stdout.split('\n').filter((line) => line.startsWith('{"event":'));
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.parse(events[0]!)).toMatchObject({ event: 'ChatLogCreated', source: 'realtime' });
  }, 30_000);
});
