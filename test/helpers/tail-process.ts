// `clinic --profile sandbox chat tail …` spawned as a user runs it, its stdout lines and stderr collected as they come.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BIN, baseEnv } from './cli.js';

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
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
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
