// Ctrl-C typed at a real terminal, as a person does: it reaches the command as SIGINT (the terminal keeps `isig`
// while a spinner shows), or as the key a prompt reads; either way the command stops, flushes what is valid, exits 130
// and leaves the terminal as it found it.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { BIN, baseEnv, customersOnServer, lines } from '../../helpers/cli.js';
import { onPty, plain } from '../../helpers/pty.js';
import { usePtyClinic, type WatchedPty } from '../../helpers/pty-modes.js';
import { replay } from '../../helpers/screen.js';
import { useTempDir } from '../../helpers/temp-dir.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';
import { oauthWorld, realtimeWorld, useWorld } from '../../helpers/world.js';

// Many customers and a rate limit of a few requests per 2-second window: an export or a bulk run takes minutes.
const world = useWorld(() => realtimeWorld({ records: 1000, rateWindowSeconds: 2 }));
const dir = useTempDir('clinic-ctrl-c-');
const startOnPty = usePtyClinic(world, dir);
beforeEach(() => world.sandbox.setRateLimit(0));

/** Types Ctrl-C and returns the exit code, with what the terminal showed when it is not the one expected. */
async function interrupt(t: WatchedPty): Promise<number | null> {
  t.type('\x03');
  return (await t.exited).code;
}

/** While it runs: the terminal still turns Ctrl-C into SIGINT (no spinner put it in raw mode). */
async function expectSignalsOn(t: WatchedPty): Promise<void> {
  expect(await t.modes(), plain(t.output)).toMatchObject({ isig: true, icanon: true });
}

/** The lock folders left under `dir` (a lock is a folder named `….lock`). */
async function locksUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries.filter((entry) => entry.endsWith('.lock'));
}

/** After it ended: the terminal is as the shell had it. */
async function expectTerminalRestored(t: WatchedPty): Promise<void> {
  expect(await t.modesAfter()).toEqual({ isig: true, icanon: true, echo: true });
}

describe('Ctrl-C on a terminal', () => {
  it('stops an export while its progress shows: the JSON written is complete and valid, exit 130', async () => {
    world.sandbox.setRateLimit(5);
    const out = join(dir.path, 'customers.json');
    const t = startOnPty(['customers', 'list', '--all', '--per-page', '5', '-o', 'json'], {
      stdoutFile: out,
    });
    await t.waitFor(/fetched \d+ of 1000 customers/);
    await expectSignalsOn(t);
    expect(await interrupt(t), plain(t.output)).toBe(130);
    const records = JSON.parse(await readFile(out, 'utf8')) as unknown[];
    expect(records.length).toBeGreaterThanOrEqual(5);
    expect(records.length).toBeLessThan(1000);
    await expectTerminalRestored(t);
    // Its pages in flight were teaching the shared budget under its lock: none left for the next command to wait on.
    expect(await locksUnder(join(world.configDir, 'rate-limit'))).toEqual([]);
  });

  it('stops a bulk run while its progress shows: the journal stays consistent and --resume finishes it', async () => {
    world.sandbox.setRateLimit(5);
    const tag = `ctrlc${Date.now() % 100000}`;
    const total = 60;
    const file = join(dir.path, 'people.ndjson');
    const people = Array.from({ length: total }, (_, i) => ({
      first_name: `P${i + 1}`,
      last_name: 'CtrlC',
      email: `${tag}.${i + 1}@example.com`,
    }));
    await writeFile(file, people.map((p) => JSON.stringify(p)).join('\n') + '\n');
    const results = join(dir.path, 'results.ndjson');
    const t = startOnPty(['customers', 'create', '--from', file], { stdoutFile: results });
    await t.waitFor(new RegExp(`customers create: [1-9]\\d*/${total} records`));
    await expectSignalsOn(t);
    expect(await interrupt(t), plain(t.output)).toBe(130);
    const first = lines(await readFile(results, 'utf8')).map((line) => JSON.parse(line));
    expect(first.length).toBeLessThan(total);
    await expectTerminalRestored(t);

    world.sandbox.setRateLimit(0);
    const resumed = await world.clinic(['customers', 'create', '--from', file, '--resume']);
    const rows = lines(resumed.stdout).map((line) => JSON.parse(line));
    expect(rows.map((r) => r.line)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    const server = await customersOnServer(world, tag);
    for (const row of rows) {
      const count = server.get(`${tag}.${row.line}@example.com`) ?? 0;
      // A record whose answer the interruption cut off is reported unknown, never sent twice.
      if (row.status === 'ok') expect(count, `line ${row.line}`).toBe(1);
      else expect([row.status, count <= 1]).toEqual(['unknown', true]);
    }
  }, 60_000);

  /** `clinic ARGS` three times in a shell's loop on a pty, each run announced, and the end of the loop. */
  const inALoop = (args: string[]) => {
    const clinic = [process.execPath, BIN, '--profile', 'sandbox', ...args];
    const loop = 'for i in 1 2 3; do echo "run $i"; "$@"; done; echo "the loop ended"';
    return onPty(['bash', '-c', loop, 'bash', ...clinic], { cols: 250, env: baseEnv(world.configDir) });
  };

  it.each([
    ['chat tail', ['chat', 'tail'], 'listening on'],
    [
      'a wait for the rate limit',
      ['customers', 'list', '--all', '--per-page', '5'],
      /fetched \d+ of \d+ customers/,
    ],
    // Read as a key (raw mode): no SIGINT reached the shell; clinic sends it to its process group, as the terminal would.
    ['a question', ['erasure', 'create', '--customer', '1'], 'Type 1 to confirm'],
  ])(
    'in a shell loop, stops %s and the loop with it: no next run (clinic ends by SIGINT, as a program Ctrl-C stops)',
    async (_what, args, shown) => {
      world.sandbox.setRateLimit(5);
      const t = inALoop(args as string[]);
      await t.waitFor(shown as string | RegExp);
      t.type('\x03');
      const { code, output } = await t.exited;
      expect(plain(output)).toContain('run 1');
      expect(plain(output)).not.toContain('run 2');
      expect(plain(output)).not.toContain('the loop ended');
      expect(code).toBe(130);
    },
  );

  it("stops an export waiting for another process's hold on the rate-limit budget: at once, its JSON valid", async () => {
    world.sandbox.setRateLimit(1000);
    // Another clinic process of the profile holds the budget file's lock: the export's second request waits for it.
    const origin = new URL(world.sandbox.info.base_url).origin;
    const lock = join(world.configDir, 'rate-limit', 'sandbox', `${encodeURIComponent(origin)}.json.lock`);
    await mkdir(lock, { recursive: true });
    try {
      world.newRequests();
      const out = join(dir.path, 'held.json');
      const t = startOnPty(['customers', 'list', '--all', '--per-page', '5', '-o', 'json'], {
        stdoutFile: out,
        cols: 80,
      });
      await t.waitFor(/fetching customers/);
      while (!world.newRequests().some((r) => r.path.endsWith('/customers')))
        await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 500)); // the second request at the lock
      expect(await interrupt(t), plain(t.output)).toBe(130);
      // Ended by the run itself, not by bin after its grace: the array is closed (the first page in it, unless
      // Ctrl-C came before its answer on a slow machine).
      expect(JSON.parse(await readFile(out, 'utf8')).length).toBeLessThanOrEqual(5);
      const screen = replay(t.output, 80);
      expect(
        screen.rows.some((row) => row.includes('fetch')),
        JSON.stringify(t.output),
      ).toBe(false);
      expect(screen.rows).toContain('error: interrupted');
      expect(world.newRequests()).toEqual([]);
      await expectTerminalRestored(t);
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  });

  it('ends a question at the prompt: nothing sent, exit 130, the terminal given back', async () => {
    world.newRequests();
    // Wide enough that the question is on one line.
    const t = startOnPty(['erasure', 'create', '--customer', '1'], { cols: 250 });
    await t.waitFor('Type 1 to confirm');
    expect(await interrupt(t), plain(t.output)).toBe(130);
    expect(world.newRequests().map((r) => r.method)).toEqual(['GET']); // who customer 1 is, to ask
    expect(plain(t.output)).toContain('error: interrupted at the question: nothing was changed');
    await expectTerminalRestored(t);
  });

  it('ends chat tail: exit 130, the error on a line of its own (not after the ^C the terminal echoed)', async () => {
    const t = startOnPty(['chat', 'tail']);
    await t.waitFor('listening on');
    await expectSignalsOn(t);
    expect(await interrupt(t), plain(t.output)).toBe(130);
    expect(plain(t.output)).toMatch(/^error: interrupted$/m);
    await expectTerminalRestored(t);
  });

  it('ends chat tail --forward-to while it retries a down endpoint: exit 130 at once, saying what was not forwarded', async () => {
    const endpoint = await startWebhookReceiver('whsec_pty');
    try {
      const conversation = world.sandbox.fixtures.tenants[1]!.conversations[1]!;
      const post = (body: string) =>
        world.sandbox.postMessage({ tenantId: 1, conversationId: conversation, body, senderType: 'customer' })
          .id;
      const t = startOnPty(['chat', 'tail', '--forward-to', endpoint.url], {
        env: { CLINIC_FORWARD_SECRET: 'whsec_pty' },
      });
      await t.waitFor('listening on');
      // On a terminal, a line per delivery.
      const accepted = post('accepted');
      await t.waitFor(`ChatLogCreated.1.${conversation}.${accepted}  -> 204`);
      endpoint.answer = 503;
      const waiting = post('waiting');
      await t.waitFor(
        `ChatLogCreated.1.${conversation}.${waiting}: the endpoint answered 503; trying again in`,
      );
      await expectSignalsOn(t);
      expect(await interrupt(t), plain(t.output)).toBe(130);
      expect(plain(t.output)).toContain(
        '1 event was not forwarded: the tail ended before the endpoint accepted it',
      );
      await expectTerminalRestored(t);
    } finally {
      await endpoint.close();
    }
  });
});

describe('Ctrl-C during a wait nothing cuts short (another process refreshing the sign-in)', () => {
  const expired = useWorld(() => oauthWorld({ accessTokenTtl: 2 }));
  const onExpiredPty = usePtyClinic(expired, dir);

  it('ends the run within a second all the same: its progress line erased, the error said once, exit 130', async () => {
    const browser = `"${process.execPath}" "${fileURLToPath(new URL('../../helpers/fetch-browser.mjs', import.meta.url))}"`;
    const login = await expired.clinic(['login', '--insecure-storage'], { env: { BROWSER: browser } });
    expect(login.code, login.stderr).toBe(0);
    // The token has expired, and another clinic process holds the sign-in's lock while it refreshes it.
    const file = join(expired.configDir, 'credentials.json');
    const all = JSON.parse(await readFile(file, 'utf8'));
    all.sandbox.expires_at = new Date(Date.now() - 5000).toISOString();
    await writeFile(file, JSON.stringify(all), { mode: 0o600 });
    const lock = join(expired.configDir, 'locks', 'sandbox.refresh.lock');
    await mkdir(lock, { recursive: true });
    try {
      const t = onExpiredPty(['customers', 'list', '--all', '-o', 'ndjson'], {
        stdoutFile: join(dir.path, 'refresh.ndjson'),
        cols: 80,
      });
      await t.waitFor(/fetching customers/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await interrupt(t), plain(t.output)).toBe(130);
      const screen = replay(t.output, 80);
      // Its line, and the JSON error -o ndjson asks for (as the run's own end gives them), each said once.
      expect(screen.rows[0], JSON.stringify(t.output)).toBe('error: interrupted'); // no empty row above it
      const said = screen.rows.filter((row) => row !== '').join('');
      expect(said, JSON.stringify(t.output)).toBe(
        'error: interrupted' +
          '{"error":{"status":null,"code":"interrupted","message":"interrupted","errors":null,"exit_code":130}}',
      );
      expect(screen.column).toBe(0);
      // The cursor shown (the spinner hid it while it spun).
      expect(t.output.lastIndexOf('\x1b[?25h')).toBeGreaterThan(t.output.lastIndexOf('\x1b[?25l'));
      await expectTerminalRestored(t);
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  });
});

describe('Ctrl-C at the login prompt for a pasted address', () => {
  const signedOut = useWorld(oauthWorld);
  const onSignedOutPty = usePtyClinic(signedOut, dir);

  it('ends the sign-in: exit 130, the terminal given back', async () => {
    const t = onSignedOutPty(['login', '--insecure-storage', '--no-browser']);
    await t.waitFor('Or paste the address');
    expect(await interrupt(t), plain(t.output)).toBe(130);
    await expectTerminalRestored(t);
  });
});
