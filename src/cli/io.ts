// The terminal: data to stdout (with backpressure), everything else to stderr; colour, prompts and spinners
// only where a terminal is there to see them.
import type { Readable, Writable } from 'node:stream';
import type { Sink } from './output/render.js';
import { redactSecrets } from '../core/redact.js';
import { sanitize, sanitizeLines } from './output/sanitize.js';
import type { Wait, WaitWatcher } from '../core/watched-sleep.js';
import { Countdown, COUNTDOWN_FROM_MS, waitLine } from './countdown.js';

export interface Streams {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
  /** stdout without its stream, for small outputs (bin/clinic.js: making the stream costs a start-up a millisecond). */
  direct?: DirectStdout;
}

export interface DirectStdout {
  /** Whether stdout is a terminal, told without making its stream. */
  readonly isTTY: boolean;
  /** Whether stdout is a pipe or a socket (`clinic … | jq`), whose reader may print on the same terminal. */
  readonly isPipe?: boolean;
  /** Writes all of `text` at once when it may (a small output, no stream made yet): false to use the stream. */
  write(text: string): boolean;
  /** Asks to be told when stdout's reader has gone (`| head`) instead of the run ending there; data is then dropped. */
  onClosed?(tell: () => void): void;
}

export interface IoOptions {
  /** False for --no-color or NO_COLOR. */
  colourAllowed: boolean;
  /** False for --no-input. */
  inputAllowed: boolean;
  /** -q, --quiet: no progress and no notes on stderr; errors and alerts still print. */
  quiet?: boolean;
  /** False where the terminal cannot redraw a line (TERM=dumb): no spinner. */
  spinners?: boolean;
  /** The run's Ctrl-C (see afterCtrlC). */
  interrupt?: AbortSignal;
  /** The width asked for where no terminal tells one (COLUMNS: `COLUMNS=60 clinic … -o table > file`). */
  columns?: number;
}

export interface Progress {
  update(text: string): void;
  stop(): void;
}

const NO_PROGRESS: Progress = { update() {}, stop() {} };

/** The width assumed where no terminal says its own: a file, a pipe with no terminal behind it. */
export const DEFAULT_WIDTH = 120;

/** COLUMNS as a width, when it is one (a whole number of 20 to 1000 cells). */
export function widthAsked(columns: string | undefined): number | undefined {
  const width = columns ? Number(columns) : Number.NaN; // no regular expression: this runs at every start
  return Number.isInteger(width) && width >= 20 && width <= 1000 ? width : undefined;
}

/**
 * The width of the terminal a person reads the output on: stdout's; when stdout goes into a pipe or a file, `asked`
 * (COLUMNS) when it is set, else stderr's, which a person reads the pipe on; undefined where none tells one. Each
 * stream is made when first touched: stdout's only when it is a terminal, stderr's only when stdout is not.
 */
export function readerWidth(
  streams: Pick<Streams, 'stdout' | 'stderr'>,
  stdoutIsTTY: boolean,
  asked: number | undefined,
): number | undefined {
  const width = (stream: { isTTY?: boolean; columns?: number }) =>
    stream.isTTY === true && (stream.columns ?? 0) > 0 ? stream.columns : undefined;
  if (stdoutIsTTY) return width(streams.stdout) ?? asked;
  return asked ?? width(streams.stderr);
}

/**
 * What others on the terminal a spinner is on need of it: to be cleared first (data, a line), to stop for good (a
 * part of a line of data), or to give its line to a countdown for a while.
 */
interface SpinnerOnScreen {
  /** Whether it is drawn now (not stopped, nor lent to a countdown). */
  spinning(): boolean;
  clear(): void;
  stop(): void;
  pause(): void;
  resume(): void;
}

export class IO implements Sink {
  /** --jq: data is collected here instead of going to stdout (output/jq.ts filters it at the end). */
  private collector?: Sink;
  /** The spinner drawn on stderr, while there is one. */
  private spinner?: SpinnerOnScreen;
  /** The countdown of a wait, while one goes on: it has the spinner's line meanwhile. */
  private countdown?: Countdown;
  /** Data on the terminal ends in the middle of a line: no countdown is drawn after it (it would erase it). */
  private dataMidLine = false;
  /** A run asked to be told when stdout's reader goes (onOutputClosed): a write that fails for it is dropped. */
  private toldOfClose = false;
  /** The run has failed or been stopped (stopDrawing): no spinner or countdown is drawn any more. */
  private drawingStopped = false;
  /** A spinner or a countdown was drawn when Ctrl-C came: the ^C the terminal echoed is on its line (afterCtrlC). */
  private drawnAtCtrlC = false;

  constructor(
    readonly streams: Streams,
    private readonly options: IoOptions,
  ) {
    options.interrupt?.addEventListener(
      'abort',
      () => (this.drawnAtCtrlC = this.spinner?.spinning() === true || this.countdown?.drawn === true),
      { once: true },
    );
  }

  get stdoutIsTTY(): boolean {
    return this.streams.direct?.isTTY ?? this.streams.stdout.isTTY === true;
  }

  get stderrIsTTY(): boolean {
    return this.streams.stderr.isTTY === true;
  }

  get stdinIsTTY(): boolean {
    return this.streams.stdin.isTTY === true;
  }

  /** Colour on stdout: allowed and a terminal. */
  get colour(): boolean {
    return this.options.colourAllowed && this.stdoutIsTTY;
  }

  get colourErr(): boolean {
    return this.options.colourAllowed && this.stderrIsTTY;
  }

  /** Prompts need a terminal on both ends and --no-input not given. */
  get canPrompt(): boolean {
    return this.options.inputAllowed && this.stdinIsTTY && this.stderrIsTTY;
  }

  /**
   * The terminal's width: stdout's; when stdout goes into a pipe or a file, COLUMNS when it is set
   * (`COLUMNS=100 clinic … -o table > list.txt`), else stderr's, which a person reads the pipe on (`clinic erasure
   * list -o table | less`); 120 where none tells one (a pty made without a size).
   */
  get columns(): number {
    return readerWidth(this.streams, this.stdoutIsTTY, this.options.columns) ?? DEFAULT_WIDTH;
  }

  /** Data goes to `collector` from now on instead of stdout; undefined: to stdout again. */
  collectData(collector: Sink | undefined): void {
    this.collector = collector;
  }

  /**
   * `tell` when stdout's reader has gone (`clinic … | head`), instead of ending the run there quietly: the run goes on
   * without it, what it writes dropped. False where that cannot be told (the run then ends as before).
   */
  onOutputClosed(tell: () => void): boolean {
    const { direct } = this.streams;
    if (!direct?.onClosed) return false;
    this.toldOfClose = true;
    direct.onClosed(tell);
    return true;
  }

  /** Writes data to stdout and waits when the pipe is full, so long exports run in constant memory. */
  write(text: string): Promise<void> {
    if (text === '') return Promise.resolve();
    if (this.collector) return this.collector.write(text);
    if (this.stdoutIsTTY) this.makeRoomForData(text);
    if (this.streams.direct?.write(text)) {
      this.countdown?.draw();
      return Promise.resolve();
    }
    const { stdout } = this.streams;
    return new Promise((resolve, reject) => {
      const ok = stdout.write(text, (error) => {
        if (!error) return;
        // A closed pipe, told to the run that asked (onOutputClosed): what it wrote is dropped, not its failure.
        const gone = (error as NodeJS.ErrnoException).code;
        if (this.toldOfClose && (gone === 'EPIPE' || gone === 'ERR_STREAM_DESTROYED')) resolve();
        else reject(error);
      });
      this.countdown?.draw(); // below the data (a terminal's writes are done at once)
      if (ok) resolve();
      else stdout.once('drain', () => resolve());
    });
  }

  get quiet(): boolean {
    return this.options.quiet === true;
  }

  /**
   * A note on stderr (progress told in words, a retry, a wait, a warning, what was done): silenced by --quiet. One
   * line, whatever it quotes: a line break in it (a server's message) is a space, so no text can forge a line of its
   * own below it. No control character, and no secret of this run (see redact.ts), ever reaches stderr through here
   * or `alert`.
   */
  err(line: string): void {
    if (!this.quiet) this.alert(line);
  }

  /**
   * A line on stderr that --quiet never silences: for what a script must hear (output written may be incomplete, the
   * detail of a failure) and what a person must read to go on (a sign-in address).
   */
  alert(line: string): void {
    // A line of its own, the spinner (on its next frame) or the countdown (now) drawn again below it.
    if (this.countdown) this.countdown.erase();
    else this.spinner?.clear();
    this.streams.stderr.write(`${sanitize(redactSecrets(line))}\n`);
    this.countdown?.draw();
  }

  /**
   * A wait of the HTTP client (or of chat tail's forwarding), told as a person or a script needs it. On a terminal
   * that can redraw a line, a wait of 2 s or more is a countdown in place, the spinner's line lent to it meanwhile;
   * elsewhere (and for shorter waits) one line as ever (a further wait for the same window is not told again).
   * Nothing with --quiet.
   */
  showWait(wait: Wait): WaitWatcher | undefined {
    if (this.quiet || this.drawingStopped) return undefined;
    if (wait.ms >= COUNTDOWN_FROM_MS && this.canRedraw && !(this.stdoutIsTTY && this.dataMidLine)) {
      if (!this.countdown) {
        this.spinner?.pause();
        this.countdown = new Countdown(
          this.streams.stderr,
          () => {
            this.countdown = undefined;
            this.spinner?.resume();
          },
          () => this.stdoutIsTTY && this.dataMidLine,
        );
      }
      return this.countdown.follow(wait);
    }
    if (wait.kind !== 'window' || !wait.again) this.err(waitLine(wait));
    return undefined;
  }

  /**
   * Whether stderr is a terminal whose line may be redrawn: one that reports a width (a pty made without a size sends
   * ora into an endless redraw), not TERM=dumb, and not shared with a pipe's reader (`clinic … | jq`: jq prints on this
   * terminal, and nothing here knows when: its lines would meet the ones redrawn).
   */
  private get canRedraw(): boolean {
    const drawable = this.options.spinners !== false && (this.streams.stderr.columns ?? 0) > 0;
    if (!this.stderrIsTTY || !drawable) return false;
    return this.stdoutIsTTY || this.streams.direct?.isPipe !== true;
  }

  /**
   * The run has failed or was stopped, and its error is told next: the countdown's line is erased and the spinner
   * stopped (the cursor shown), for good. A request still settling (one whose turn came as Ctrl-C was typed) draws
   * nothing after the run's last words, and tells none of its waits.
   */
  stopDrawing(): void {
    this.drawingStopped = true;
    this.countdown?.close();
    this.countdown = undefined;
    this.spinner?.stop();
    this.spinner = undefined;
  }

  /**
   * What starts the run's last words after Ctrl-C, which the terminal echoed as ^C where the cursor was. On the line of
   * a spinner or a countdown (erased since, the ^C with it): that row, erased again, so no empty row is left above
   * them. Elsewhere a line break, the ^C left in sight as a shell leaves it.
   */
  afterCtrlC(): string {
    return this.drawnAtCtrlC && this.canRedraw ? '\r\x1b[K' : '\n';
  }

  /** The server's text as it came (--raw, `clinic api`): exact into a pipe, made safe for a terminal. */
  writeServerText(text: string): Promise<void> {
    const line = text.endsWith('\n') ? text : `${text}\n`;
    return this.write(this.stdoutIsTTY ? sanitizeLines(line) : line);
  }

  /**
   * Data for the terminal a spinner or a countdown is drawn on: its line is cleared first, or the two would share it
   * (and a copied row would hold the spinner's text). Whole lines let it draw again below them (the countdown at once,
   * the spinner on its next frame); a part of a line would be erased by that, so the spinner stops for good, and no
   * countdown is drawn until a line of data ends.
   */
  private makeRoomForData(text: string): void {
    const whole = text.endsWith('\n');
    this.dataMidLine = !whole;
    this.countdown?.erase();
    if (!this.spinner) return;
    if (whole) {
      if (!this.countdown) this.spinner.clear(); // lent to the countdown: nothing of it on screen
      return;
    }
    this.spinner.stop();
    this.spinner = undefined;
  }

  /** Starts a spinner on stderr when it is a terminal and --quiet is not given; otherwise nothing is shown. */
  async progress(text: string): Promise<Progress> {
    if (this.quiet || !this.canRedraw) return NO_PROGRESS;
    const { default: ora } = await import('ora');
    if (this.drawingStopped) return NO_PROGRESS;
    // This class decides where progress shows (above), not ora's own environment checks.
    const spinner = ora({
      text,
      stream: this.streams.stderr,
      color: this.colourErr ? 'cyan' : undefined,
      isEnabled: true,
      // ora's default puts stdin in raw mode to swallow keys, which turns off the terminal's signals: Ctrl-C would
      // reach no one. Typed keys echo over the spinner instead; Ctrl-C stays SIGINT.
      discardStdin: false,
    });
    // While a countdown has the line, the spinner starts when it gives it back.
    if (!this.countdown) spinner.start();
    // One lent to a countdown is stopped already: stopped again, its clear would move the cursor off the countdown.
    const halt = () => {
      if (spinner.isSpinning) spinner.stop();
    };
    const onScreen: SpinnerOnScreen = {
      spinning: () => spinner.isSpinning,
      clear: () => spinner.clear(),
      stop: halt,
      pause: halt,
      resume: () => spinner.start(),
    };
    this.spinner = onScreen;
    return {
      update: (next) => {
        spinner.text = next;
      },
      stop: () => {
        halt();
        if (this.spinner === onScreen) this.spinner = undefined;
      },
    };
  }

  async readStdin(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.streams.stdin) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }
}
