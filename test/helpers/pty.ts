// Runs a command on a real pseudo-terminal (util-linux `script`, present on every Debian), sized as asked, so tests
// see what a person sees: the line discipline turns a typed Ctrl-C into SIGINT only while the terminal keeps `isig`.
import { spawn } from 'node:child_process';
import { posixQuote } from '../../src/cli/completion/quote.js';

export interface PtyOptions {
  cols?: number;
  rows?: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface PtySession {
  /** Everything the terminal showed so far, as raw bytes decoded (with \r\n and escape sequences). */
  readonly output: string;
  /** Types text at the terminal (`'\x03'` is Ctrl-C, `'\r'` is Enter). */
  type(text: string): void;
  /** Resolves once the output matches; rejects after `timeoutMs` with what was shown. */
  waitFor(pattern: string | RegExp, timeoutMs?: number): Promise<void>;
  /** The command's exit code (`script -e` passes it on; 130 after SIGINT) and what was shown. */
  exited: Promise<{ code: number | null; output: string }>;
  kill(): void;
}

/** Starts `argv` on a pty of cols × rows (default 80 × 24). */
export function onPty(argv: string[], options: PtyOptions = {}): PtySession {
  const { cols = 80, rows = 24 } = options;
  const command = `stty cols ${cols} rows ${rows}; exec ${argv.map(posixQuote).join(' ')}`;
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
    env: { ...process.env, TERM: 'xterm-256color', ...options.env },
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr.resume();
  const exited = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, output })),
  );
  return {
    get output() {
      return output;
    },
    type: (text) => child.stdin.write(text),
    waitFor(pattern, timeoutMs = 15_000) {
      const matches = () => (typeof pattern === 'string' ? output.includes(pattern) : pattern.test(output));
      return new Promise<void>((resolve, reject) => {
        if (matches()) return resolve();
        const check = () => {
          if (!matches()) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(
            new Error(`not shown within ${timeoutMs} ms: ${String(pattern)}\n--- shown:\n${plain(output)}`),
          );
        }, timeoutMs);
        listeners.add(check);
      });
    },
    exited,
    kill: () => child.kill('SIGKILL'),
  };
}

/** What a person reads: escape sequences removed, each line's last carriage-return overwrite kept. */
export function plain(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[=>]/g, '')
      .split('\n')
      .map((line) => line.replace(/\r$/, '').split('\r').at(-1) ?? '')
      .join('\n')
  );
}
