// Where the rate-limit budget lives: in this process (LocalPacer), or, once a window is nearly spent, in a file of
// the config directory shared by every clinic process of a profile (SharedPacer), so two exports of one user together
// stay inside the one quota the API gives that user. While a window has room, each process counts alone and the file
// is not touched (a lock and a write on every answer cost each short command more than its request).
import type { Clock } from '../clock.js';
import { lazyRequire } from '../lazy-require.js';
import { withLock } from '../lock.js';
import { type BudgetState, combine, hasRateHeaders, learn, nearlySpent, takeSlot } from './rate-budget.js';

type Headers = Record<string, string | undefined>;
const fsp = lazyRequire<typeof import('node:fs/promises')>('node:fs/promises');

export interface Pacer {
  /** Takes a slot for one request: 0 = send now; otherwise wait that many ms and ask again. */
  slot(): Promise<number>;
  /** Learns from an answer's headers. */
  observe(headers: Headers): Promise<void>;
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
}

export class SharedPacer implements Pacer {
  /**
   * This process's view: its own count while the window has room, the file's (and its own) once it is nearly spent.
   * It starts empty: the first request goes, and its answer tells how much of the window is left.
   */
  private view: BudgetState = {};

  constructor(
    private readonly file: string,
    private readonly clock: Clock,
  ) {}

  async slot(): Promise<number> {
    const now = this.clock.now();
    if (!nearlySpent(this.view, now)) return this.step(this.view, (state) => takeSlot(state, now));
    return this.update((state) => takeSlot(combine(state, this.view, now), now));
  }

  async observe(headers: Headers): Promise<void> {
    if (!hasRateHeaders(headers)) return;
    const now = this.clock.now();
    this.view = learn(this.view, headers, now);
    if (nearlySpent(this.view, now))
      await this.update((state) => ({ state: combine(state, this.view, now), wait: 0 }));
  }

  private step(
    state: BudgetState,
    take: (state: BudgetState) => { state: BudgetState; wait: number },
  ): number {
    const next = take(state);
    this.view = next.state;
    return next.wait;
  }

  private update(take: (state: BudgetState) => { state: BudgetState; wait: number }): Promise<number> {
    return withLock(this.file, async () => {
      const wait = this.step(await this.read(), take);
      await fsp().writeFile(this.file, JSON.stringify(this.view), { mode: 0o600 });
      return wait;
    });
  }

  private async read(): Promise<BudgetState> {
    try {
      const state = JSON.parse(await fsp().readFile(this.file, 'utf8')) as BudgetState;
      return typeof state === 'object' && state !== null ? state : {};
    } catch {
      return {}; // none yet, or torn by a crash: start over from the next answer
    }
  }
}
