// How the waits of the HTTP client and of chat tail's forwarding are told: a line each where no one watches stderr
// redraw (what scripts parse), and on a terminal a countdown redrawn in place on one line, cut to the terminal's width,
// erased when the wait is over.
import type { Wait, WaitWatcher } from '../core/watched-sleep.js';
import { redactSecrets } from '../core/redact.js';
import { clipCells, displayWidth } from './output/cells.js';
import { sanitize } from './output/sanitize.js';

/** Shorter waits are told in a line, as everywhere: a countdown from 1 would be gone as soon as read. */
export const COUNTDOWN_FROM_MS = 2000;

/** The one line a wait is told in (a pipe, a file, TERM=dumb): scripts parse it, so its words stay as they are. */
export function waitLine(wait: Wait): string {
  if (wait.kind === 'window')
    return `waiting ${Math.ceil(wait.ms / 1000)}s for the rate-limit window to reset`;
  if (wait.kind === 'forward') return `${wait.reason}; trying again in ${Math.round(wait.ms / 1000)}s`;
  const seconds = Math.round(wait.ms / 100) / 10;
  return `${wait.reason}; retrying in ${seconds}s (retry ${wait.retry} of ${wait.of})`;
}

const HINT = 'Ctrl-C to stop';

/**
 * A frame of the countdown with `leftMs` to go, in at most `width - 1` cells (the last column left free: a line that
 * fills it wraps on some terminals). Made shorter before it is cut: the hint goes first, then a retry's reason is
 * cut, the count and the retry's number kept; on a very narrow terminal the whole is cut.
 */
export function countdownFrame(wait: Wait, leftMs: number, width: number): string {
  const room = Math.max(1, width - 1);
  const seconds = Math.max(1, Math.ceil(leftMs / 1000));
  const safe = (text: string) => sanitize(redactSecrets(text));
  if (wait.kind === 'window') {
    const said = `waiting ${seconds}s for the rate-limit window to reset`;
    return fitted([`${said} (${HINT})`, said], room);
  }
  const reason = safe(wait.reason);
  // A forwarded event is tried until it is taken: no count of tries to show.
  const [retrying, close] =
    wait.kind === 'forward'
      ? [`trying again in ${seconds}s`, '']
      : [`retrying in ${seconds}s (retry ${wait.retry} of ${wait.of}`, ')'];
  const full = `${reason}; ${retrying}${close ? `; ${HINT})` : ` (${HINT})`}`;
  const bare = `${reason}; ${retrying}${close}`;
  const cutReason = `${clipCells(reason, room - displayWidth(`; ${retrying}${close}`))}; ${retrying}${close}`;
  return fitted([full, bare, room > displayWidth(`x…; ${retrying}${close}`) ? cutReason : bare], room);
}

/** The first of `texts` that fits in `room` cells, else the last cut to fit. */
function fitted(texts: string[], room: number): string {
  const fits = texts.find((text) => displayWidth(text) <= room);
  return fits ?? clipCells(texts.at(-1) ?? '', room);
}

/** A terminal a countdown draws on: stderr, and its width now (it may change while a wait goes on). */
export interface CountdownStream {
  write(text: string): unknown;
  readonly columns?: number;
}

interface Followed {
  wait: Wait;
  left: number;
}

/**
 * The countdown line on a terminal. Several waits may go on together (requests in flight in a bulk run): the line
 * shows the one that ends last. Who else writes on the terminal erases it first and draws it again after (io.ts).
 */
export class Countdown {
  private readonly followed: Followed[] = [];
  /** The frame the line shows now; '' when nothing is drawn. */
  private shown = '';
  /** Erased for good (close): the waits still followed draw nothing. */
  private closed = false;

  constructor(
    private readonly stream: CountdownStream,
    /** Told when the last wait ended and the line was erased. */
    private readonly onOver: () => void,
    /** True while the line must not be drawn (data has left the terminal's cursor in the middle of a line). */
    private readonly held: () => boolean = () => false,
  ) {}

  /** Whether a frame is on the screen now. */
  get drawn(): boolean {
    return this.shown !== '';
  }

  /** A watcher of `wait` (the HTTP client's, or the forwarder's) that draws it on this line. */
  follow(wait: Wait): WaitWatcher {
    const entry: Followed = { wait, left: wait.ms };
    this.followed.push(entry);
    let ended = false;
    return {
      left: (ms) => {
        if (ended) return;
        entry.left = ms;
        this.draw();
      },
      end: () => {
        if (ended) return;
        ended = true;
        this.followed.splice(this.followed.indexOf(entry), 1);
        if (this.followed.length > 0) return this.draw();
        this.erase();
        this.onOver();
      },
    };
  }

  /** Draws the line again with what is followed (nothing when the frame on screen is the same). */
  draw(): void {
    const last = this.followed.reduce<Followed | undefined>(
      (longest, entry) => (longest === undefined || entry.left >= longest.left ? entry : longest),
      undefined,
    );
    if (last === undefined || this.closed || this.held()) return;
    const frame = countdownFrame(last.wait, last.left, this.stream.columns ?? 80);
    if (frame === this.shown) return;
    // From the line's start, then the rest of a longer frame before it erased.
    this.stream.write(`\r${frame}\x1b[K`);
    this.shown = frame;
  }

  /** Erases the line for good: the run's end (IO.stopDrawing). */
  close(): void {
    this.erase();
    this.closed = true;
  }

  /** Erases the line, the cursor left at its start: for a line of text to take its place (draw puts it back). */
  erase(): void {
    if (this.shown === '') return;
    this.stream.write('\r\x1b[K');
    this.shown = '';
  }
}
