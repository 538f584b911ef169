// Where the rate-limit budget lives: in this process (LocalPacer), or in a file of the config directory shared by
// every clinic process of a profile (SharedPacer), so two exports of one user together stay inside the one quota the
// API gives that user. The file is read and written under a lock around each request from a process's second on,
// and only once the server has sent rate-limit headers: a command of one request (most are), or a server without
// the headers, costs no file work at all (the lock's module alone costs a short command more than its request).
import type { Clock } from '../clock.js';
import { lazyRequire } from '../lazy-require.js';
import { withLock } from '../lock.js';
import { type BudgetState, combine, hasRateHeaders, learn, roomIn, takeSlot } from './rate-budget.js';

type Headers = Record<string, string | undefined>;
const fsp = lazyRequire<typeof import('node:fs/promises')>('node:fs/promises');
/** The budget file's opening flags: a symbolic link in its place is refused (ELOOP), never followed. */
const {
  O_CREAT,
  O_NOFOLLOW = 0,
  O_RDONLY,
  O_TRUNC,
  O_WRONLY,
} = (process.getBuiltinModule('node:fs') as typeof import('node:fs')).constants;
const READ_UNLINKED = O_RDONLY | O_NOFOLLOW;
const WRITE_UNLINKED = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW;

/**
 * Ctrl-C's signal (with the request's own) for what the pacer waits on, made when first asked for, which is while the
 * pacer's call runs: most calls wait on nothing (no rate-limit headers, or a budget kept in this process), and a
 * signal linked for each of them cost an export of 1,000 pages 3% of its CPU.
 */
export type SignalSource = () => AbortSignal | undefined;

export interface Pacer {
  /** Takes a slot for one request: 0 = send now; otherwise wait that many ms and ask again. `signal`: Ctrl-C's. */
  slot(signal?: SignalSource): Promise<number>;
  /** Learns from an answer's headers. */
  observe(headers: Headers, signal?: SignalSource): Promise<void>;
  /** Requests the budget still allows in this window, as far as this process knows; undefined = unknown. */
  room?(): number | undefined;
}

export class LocalPacer implements Pacer {
  private state: BudgetState = {};

  constructor(private readonly clock: Clock) {}

  async slot(): Promise<number> {
    const { state, wait } = takeSlot(this.state, this.clock.now());
    this.state = state;
    return wait;
  }

  async observe(headers: Headers): Promise<void> {
    this.state = learn(this.state, headers, this.clock.now());
  }

  room(): number | undefined {
    return roomIn(this.state, this.clock.now());
  }
}

export class SharedPacer implements Pacer {
  /** What this process has learnt from its answers; the file takes it in on its next update. */
  private view: BudgetState = {};
  private sent = 0;
  private told = false;

  constructor(
    private readonly file: string,
    private readonly clock: Clock,
  ) {}

  async slot(signal?: SignalSource): Promise<number> {
    // The first request goes at once, as it did before anything was known; so does any while no answer had headers.
    if (this.sent++ === 0 || !this.told) return 0;
    return this.update((state, now) => takeSlot(combine(state, this.view, now), now), signal);
  }

  async observe(headers: Headers, signal?: SignalSource): Promise<void> {
    if (!hasRateHeaders(headers)) return;
    this.told = true;
    this.view = learn(this.view, headers, this.clock.now());
    // The answer to a first request stays here: if a second follows, its slot hands what was learnt to the file.
    if (this.sent > 1)
      await this.update((state, now) => ({ state: combine(state, this.view, now), wait: 0 }), signal);
  }

  /** What the file said at this process's last update, less what it has learnt since. */
  room(): number | undefined {
    return this.told ? roomIn(this.view, this.clock.now()) : undefined;
  }

  /** A read-change-write of the file under its lock; Ctrl-C ends a wait for another process's lock. */
  private update(
    take: (state: BudgetState, now: number) => { state: BudgetState; wait: number },
    signal: SignalSource | undefined,
  ): Promise<number> {
    return withLock(
      this.file,
      async () => {
        const next = take(await this.read(), this.clock.now());
        this.view = next.state;
        // In the profile's private folder (withLock made it so); never through a link, whoever put one there.
        await fsp().writeFile(this.file, JSON.stringify(next.state), { mode: 0o600, flag: WRITE_UNLINKED });
        return next.wait;
      },
      signal?.(),
    );
  }

  private async read(): Promise<BudgetState> {
    try {
      const text = await fsp().readFile(this.file, { encoding: 'utf8', flag: READ_UNLINKED });
      const state = JSON.parse(text) as BudgetState;
      return typeof state === 'object' && state !== null ? state : {};
    } catch {
      return {}; // none yet, or torn by a crash: start over from the next answer
    }
  }
}
