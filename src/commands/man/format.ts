// The manual page as `man` shows it, for a person at a terminal: formatted by the system's `man` to the terminal's
// width (no pager: a pager owns the terminal, and clinic ends within a second of Ctrl-C, which would leave it behind).
import { spawn } from 'node:child_process';

/** The longest `man` may take to format the page: it is a few hundred lines. */
const FORMAT_MS = 10_000;

/**
 * `page` (roff) formatted by `man -l -` at `columns`; undefined where there is no `man`, or it fails, or takes too
 * long (the caller then prints the source).
 */
export function formatWithMan(page: string, columns: number, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn('man', ['-l', '-'], {
      stdio: ['pipe', 'pipe', 'ignore'],
      // man's own pager and width, and no bold or underline by overstrike: plain text, as wide as the terminal.
      env: { ...process.env, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: String(columns), MAN_KEEP_FORMATTING: '' },
      signal,
      timeout: FORMAT_MS,
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', () => resolve(undefined)); // no man here (ENOENT), or stopped
    child.on('close', (code) => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve(code === 0 && text.trim() !== '' ? text : undefined);
    });
    child.stdin.on('error', () => undefined); // man gone before it read the page: told by 'close'
    child.stdin.end(page);
  });
}
