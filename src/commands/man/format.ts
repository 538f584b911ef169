// The manual page as `man` shows it, for a person at a terminal: formatted by the system's `man` to the terminal's
// width (no pager: a pager owns the terminal, and clinic ends within a second of Ctrl-C, which would leave it behind).
import { spawn } from 'node:child_process';

/** The longest `man` may take to format the page: it is a few hundred lines. */
const FORMAT_MS = 5_000;

/** The page formatted; or why not: no `man` here, or one that failed or took too long. */
export type Formatted = { text: string } | { missing: true } | { failed: string };

/**
 * `page` (roff) formatted by `man -l -` at `columns`. Given up after FORMAT_MS whatever holds the output open (a
 * child of man's that outlives it): man and its group are killed, the pipe dropped.
 */
export function formatWithMan(page: string, columns: number, signal: AbortSignal): Promise<Formatted> {
  return new Promise((resolve) => {
    const child = spawn('man', ['-l', '-'], {
      stdio: ['pipe', 'pipe', 'ignore'],
      // man's own pager and width, and no bold or underline by overstrike: plain text, as wide as the terminal.
      env: { ...process.env, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: String(columns), MAN_KEEP_FORMATTING: '' },
      // A group of its own, so that giving up ends whatever man started too.
      detached: true,
    });
    const chunks: Buffer[] = [];
    let settled = false;
    const end = (result: Formatted) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      child.stdout.destroy();
      resolve(result);
    };
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    };
    const stop = () => {
      kill();
      end({ failed: 'stopped' });
    };
    const timer = setTimeout(() => {
      kill();
      end({ failed: `it took more than ${FORMAT_MS / 1000}s` });
    }, FORMAT_MS);
    signal.addEventListener('abort', stop, { once: true });
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      end(error.code === 'ENOENT' ? { missing: true } : { failed: error.message }),
    );
    child.on('close', (code) => {
      const text = Buffer.concat(chunks).toString('utf8');
      end(code === 0 && text.trim() !== '' ? { text } : { failed: `it exited with ${code ?? 'a signal'}` });
    });
    child.stdin.on('error', () => undefined); // man gone before it read the page: told by 'close'
    child.stdin.end(page);
  });
}
