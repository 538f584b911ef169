// Runs the CLI in-process (main() with fake streams and injected parts) for fast command tests: no spawn, no network.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach } from 'vitest';
import type { ContextDeps } from '../../src/cli/context.js';
import { main } from '../../src/main.js';
import type { Clock } from '../../src/core/clock.js';
import { fakeClock } from './fake-clock.js';
import { BASE_URL, newFakeTransport, type SeenRequest } from './mock-api.js';
import type { FakeTransport } from './fake-transport.js';

export interface InProcessOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** Pretend stdout is a terminal (tables by default, colour where allowed). */
  tty?: boolean;
  /** Pretend stdin and stderr are a terminal, so the CLI may ask (answered by deps.prompter). */
  terminal?: boolean;
  transport?: FakeTransport;
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
    env: { NO_COLOR: '1', TZ: 'UTC', ...options.env },
    transport: options.transport,
    clock: options.clock,
    ...options.deps,
  });
  await new Promise((resolve) => setImmediate(resolve)); // let the last chunks arrive
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

export interface InProcessScaffold {
  /** A fresh temporary directory, removed after each test. */
  readonly dir: string;
  /** CLINIC_* for a signed-in default profile whose config lives under `dir`. */
  readonly env: Record<string, string | undefined>;
  /** The fake API: a FakeTransport that refuses the network; a test fails if a route it queued goes unused. */
  readonly transport: FakeTransport;
  /** Every request the fake API answered through queueReplies(agent, seen, …). */
  readonly seen: SeenRequest[];
  /** runInProcess with this test's env (merged with options.env), fake API and a fake clock. */
  run(argv: string[], options?: InProcessOptions): Promise<InProcessResult>;
}

/**
 * The shared scaffold for in-process command tests: call it at the top of a file or describe block; each test gets
 * its own temporary config directory, fake API and request log, and everything is checked and removed afterwards.
 */
export function useInProcess(): InProcessScaffold {
  let state: {
    dir: string;
    env: Record<string, string | undefined>;
    transport: FakeTransport;
    seen: SeenRequest[];
  };
  beforeEach(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clinic-in-process-'));
    const env = {
      CLINIC_CONFIG_DIR: join(dir, 'config'),
      CLINIC_BASE_URL: BASE_URL,
      CLINIC_TOKEN: 'tok',
      CLINIC_TENANT: '7',
    };
    state = { dir, env, transport: newFakeTransport(), seen: [] };
  });
  afterEach(async () => {
    try {
      state.transport.verify();
    } finally {
      await rm(state.dir, { recursive: true, force: true });
    }
  });
  return {
    get dir() {
      return state.dir;
    },
    get env() {
      return state.env;
    },
    get transport() {
      return state.transport;
    },
    get seen() {
      return state.seen;
    },
    run: (argv, options = {}) =>
      runInProcess(argv, {
        transport: state.transport,
        clock: fakeClock(),
        ...options,
        env: { ...state.env, ...options.env },
      }),
  };
}
