// `chat tail` against a fake realtime + REST server that delivers live events out of order and lists a gap fill
// newest first, over several pages: every message printed exactly once, the fill oldest first.
import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, baseEnv, exitStatus, tempDir } from '../../helpers/cli.js';
import { CREATED, type FakeRealtime, startFakeRealtime } from '../../helpers/fake-realtime.js';

const CONVERSATION = 5;
const message = (id: number) => ({ id, conversation_id: CONVERSATION, tenant_id: 1, body: `m${id}` });

let fake: FakeRealtime | undefined;
let root: string | undefined;
afterEach(async () => {
  await fake?.close();
  if (root) await rm(root, { recursive: true, force: true });
  fake = undefined;
  root = undefined;
});

interface Tail {
  child: ChildProcess;
  ids: () => [number, string][];
  stderr: () => string;
  exit: Promise<number | null>;
  waitFor(predicate: () => boolean, what: string): Promise<void>;
}

async function tail(args: string[]): Promise<Tail> {
  root = await tempDir('clinic-tail-order-');
  const child = spawn(process.execPath, [BIN, 'chat', 'tail', '-o', 'ndjson', ...args], {
    env: { ...baseEnv(join(root, 'config')), ...fake!.env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return {
    child,
    ids: () =>
      lines.map((line) => {
        const event = JSON.parse(line) as { source: string; data: { id: number } };
        return [event.data.id, event.source];
      }),
    stderr: () => stderr,
    exit: exitStatus(child),
    async waitFor(predicate, what) {
      const deadline = Date.now() + 15_000;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stderr: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** The message list after an id, newest first, two per page, over as many pages as it takes (Laravel meta). */
function newestFirst(messages: () => number[]) {
  return (path: string, query: URLSearchParams) => {
    if (path !== `/v1/conversations/${CONVERSATION}/messages`) return undefined;
    const after = Number(query.get('after'));
    const page = Number(query.get('page') ?? 1);
    const all = messages()
      .filter((id) => id > after)
      .sort((a, b) => b - a)
      .map(message);
    return {
      data: all.slice((page - 1) * 2, page * 2),
      meta: {
        current_page: page,
        last_page: Math.max(1, Math.ceil(all.length / 2)),
        per_page: 2,
        total: all.length,
      },
    };
  };
}

describe('chat tail, whatever the order', () => {
  it('live 10, 9, 11 (and 10 again): each printed once, the late 9 too', async () => {
    fake = await startFakeRealtime(() => undefined);
    const t = await tail(['--timeout', '20']);
    await fake.subscribed();
    for (const id of [10, 9, 11, 10]) fake.publish(CREATED, message(id));
    await t.waitFor(() => t.ids().length >= 3, 'three messages');
    await new Promise((resolve) => setTimeout(resolve, 300)); // a repeat would show by now
    t.child.kill('SIGINT');
    expect(await t.exit).toBe(130);
    expect(t.ids()).toEqual([
      [10, 'realtime'],
      [9, 'realtime'],
      [11, 'realtime'],
    ]);
  });

  it('a fill listed newest first over pages (--since, then after a reconnect): oldest first, each once', async () => {
    let server = [101, 102, 103, 104, 105];
    fake = await startFakeRealtime(newestFirst(() => server));
    const t = await tail(['--conversation', String(CONVERSATION), '--since', '100', '--timeout', '30']);
    await t.waitFor(() => t.ids().length >= 5, 'the backfill');
    await fake.subscribed();
    server = [...server, 106];
    fake.publish(CREATED, message(106));
    await t.waitFor(() => t.ids().length >= 6, 'the live message');
    // Messages sent while the connection is down come from REST after the reconnect, listed newest first again.
    fake.dropConnections();
    server = [...server, 107, 108, 109];
    await t.waitFor(() => t.ids().length >= 9, 'the fill after the reconnect');
    fake.publish(CREATED, message(108)); // a late repeat of a filled message
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.child.kill('SIGINT');
    await t.exit;
    expect(t.ids()).toEqual([
      [101, 'rest'],
      [102, 'rest'],
      [103, 'rest'],
      [104, 'rest'],
      [105, 'rest'],
      [106, 'realtime'],
      [107, 'rest'],
      [108, 'rest'],
      [109, 'rest'],
    ]);
    expect(t.stderr()).toContain('filled 3 missed messages (after a reconnect)');
  }, 40_000);
});
