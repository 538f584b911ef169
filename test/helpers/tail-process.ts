// `clinic --profile sandbox chat tail …` spawned as a user runs it, its stdout lines and stderr collected as they come.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { BIN, baseEnv, shellStatus, type TestWorld } from './cli.js';

export interface Tail {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  /** Polls until `predicate` holds; fails naming `what`, with the tail's stderr, after `ms`. */
  waitFor(predicate: () => boolean, what: string, ms?: number): Promise<void>;
  exit: Promise<number | null>;
}

export function spawnTail(configDir: string, args: string[], env: Record<string, string> = {}): Tail {
  const child = spawn(process.execPath, [BIN, '--profile', 'sandbox', 'chat', 'tail', ...args], {
    env: { ...baseEnv(configDir), ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(shellStatus(code, signal))),
  );
  return {
    child,
    lines,
    stderr: () => stderr,
    exit,
    async waitFor(predicate, what, ms = 20_000) {
      const deadline = Date.now() + ms;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stderr: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/**
 * Two conversations of tenant 1 for tail tests. Not the first: its AI assistant answers every patient message with
 * messages of its own.
 */
export const tailConversations = (world: TestWorld) =>
  world.sandbox.fixtures.tenants[1]!.conversations.slice(1, 3) as [number, number];

/** A patient's message in one of tailConversations (`i` picks it, by turns): its id. */
export const postPatientMessage = (world: TestWorld, body: string, i = 0) =>
  world.sandbox.postMessage({
    tenantId: 1,
    conversationId: tailConversations(world)[i % 2]!,
    body,
    senderType: 'customer',
  }).id;

/** The message ids a tail printed (its NDJSON lines). */
export const printedIds = (t: Tail) => t.lines.map((line) => JSON.parse(line).data.id as number);

/** A checkpoint's resume point of each conversation (none when the file is not there yet). */
export async function checkpointPositions(file: string): Promise<Map<number, number>> {
  const text = await readFile(file, 'utf8').catch(() => '{"conversations":[]}');
  const { conversations } = JSON.parse(text) as { conversations: { id: number; after: number }[] };
  return new Map(conversations.map(({ id, after }) => [id, after]));
}
