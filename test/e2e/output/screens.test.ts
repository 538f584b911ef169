// What a person sees on a real terminal of 60, 80 and 120 columns (util-linux `script`), kept exactly in
// __screens__/: tables that fit, nested values as sub-rows, one local time format (Berlin), chat tail's aligned lines.
// The sandbox's seed and clock are fixed, so only what must vary (the sandbox's port) is normalised.
// Update after a deliberate change of the output: npx vitest run test/e2e/output/screens.test.ts -u
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv, runCli } from '../../helpers/cli.js';
import { onPty, plain, type PtySession } from '../../helpers/pty.js';
import { manualClock } from '../../helpers/sandbox-clock.js';
import { realtimeWorld, useWorld } from '../../helpers/world.js';

/** The sandbox's now: live erasure requests start here, new messages carry it. */
const SANDBOX_NOW = Date.UTC(2026, 0, 20, 9, 30);
const WIDTHS = [60, 80, 120];

const world = useWorld(() =>
  realtimeWorld({ seed: 1, clock: manualClock(SANDBOX_NOW), erasureStepSeconds: 0 }),
);
const tenant = () => world.sandbox.fixtures.tenants[1]!;

function start(args: string[], cols: number): PtySession {
  const env = { ...baseEnv(world.configDir), TZ: 'Europe/Berlin' } as NodeJS.ProcessEnv;
  return onPty([process.execPath, BIN, '--profile', 'sandbox', ...args], { cols, rows: 60, env });
}

/** The screen as a person reads it, the sandbox's port made constant. */
const screenOf = (output: string) =>
  plain(output)
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/[ \t]+$/gm, '');

async function screen(args: string[], cols: number): Promise<string> {
  const { code, output } = await start(args, cols).exited;
  expect(code, plain(output)).toBe(0);
  return screenOf(output);
}

const file = (name: string, cols: number) => `./__screens__/${name}-${cols}.txt`;

describe('no terminal', () => {
  it('a table into a file takes the width COLUMNS gives, and says nothing of pages', async () => {
    const env = { ...baseEnv(world.configDir), TZ: 'Europe/Berlin', COLUMNS: '60' };
    const { code, stdout, stderr } = await runCli(
      world.configDir,
      ['--profile', 'sandbox', 'customers', 'list', '-o', 'table', '--per-page', '8'],
      { env },
    );
    expect(code, stderr).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(8);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(60);
    expect(stderr).not.toContain('page 1 of');
  });
});

describe.each(WIDTHS)('on a terminal of %i columns', (cols) => {
  it('erasure list', async () => {
    await expect(await screen(['erasure', 'list'], cols)).toMatchFileSnapshot(file('erasure-list', cols));
  });

  it('customers list', async () => {
    await expect(await screen(['customers', 'list', '--per-page', '8'], cols)).toMatchFileSnapshot(
      file('customers-list', cols),
    );
  });

  it('account', async () => {
    await expect(await screen(['account'], cols)).toMatchFileSnapshot(file('account', cols));
  });

  it('erasure get (a failed request: its report as sub-rows, the reason of the failure readable)', async () => {
    const id = String(tenant().erasureRequests.failed);
    await expect(await screen(['erasure', 'get', id], cols)).toMatchFileSnapshot(file('erasure-get', cols));
  });

  it('chat tail: history asked with --since, then a live message, aligned', async () => {
    const conversation = tenant().conversations[1]!;
    const since = tenant().messages[conversation]!.at(-4)!;
    const session = start(
      ['chat', 'tail', '--conversation', String(conversation), '--since', String(since)],
      cols,
    );
    await session.waitFor('printed 3 earlier messages (--since)', 30_000);
    const live = world.sandbox.postMessage({
      tenantId: 1,
      conversationId: conversation,
      body: 'Is parking free on Saturdays?',
    });
    await session.waitFor('Is park', 30_000);
    session.type('\x03');
    const { code, output } = await session.exited;
    world.sandbox.deleteMessage(conversation, live.id); // the next width's history is the same three
    expect(code, plain(output)).toBe(130);
    await expect(screenOf(output)).toMatchFileSnapshot(file('chat-tail', cols));
  });
});
