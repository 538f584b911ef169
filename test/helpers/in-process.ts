// Runs the CLI in-process (main() with fake streams and injected parts) for fast command tests: no spawn, no network.
import { PassThrough } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { ContextDeps } from '../../src/cli/context.js';
import { main } from '../../src/main.js';
import type { Clock } from '../../src/core/clock.js';

export interface InProcessOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** Pretend stdout is a terminal (tables by default, colour where allowed). */
  tty?: boolean;
  /** Pretend stdin and stderr are a terminal, so the CLI may ask (answered by deps.prompter). */
  terminal?: boolean;
  dispatcher?: Dispatcher;
  clock?: Clock;
  deps?: Partial<ContextDeps>;
}

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

function capture(tty: boolean) {
  // A terminal as spinners use it: cursor moves are accepted and ignored.
  const cursor = { cursorTo: () => true, clearLine: () => true, moveCursor: () => true };
  const stream = Object.assign(
    new PassThrough(),
    { isTTY: tty, columns: tty ? 100 : undefined },
    tty ? cursor : {},
  );
  let text = '';
  stream.on('data', (chunk) => {
    text += chunk;
  });
  return { stream, text: () => text };
}

export async function runInProcess(argv: string[], options: InProcessOptions = {}): Promise<InProcessResult> {
  const stdout = capture(options.tty ?? false);
  const stderr = capture(options.tty ?? options.terminal ?? false);
  const stdin = Object.assign(new PassThrough(), { isTTY: options.terminal ?? false });
  stdin.end(options.stdin ?? '');
  const code = await main(argv, {
    streams: { stdin, stdout: stdout.stream, stderr: stderr.stream },
    env: { NO_COLOR: '1', ...options.env },
    dispatcher: options.dispatcher,
    clock: options.clock,
    ...options.deps,
  });
  await new Promise((resolve) => setImmediate(resolve)); // let the last chunks arrive
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
