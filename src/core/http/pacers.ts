// Where the rate-limit budget lives: in this process (LocalPacer), or in a file of the config directory shared by
// every clinic process of a profile (SharedPacer), so two exports of one user together stay inside the one quota the
// API gives that user. The file is read and written under a lock around each request, and only once the server has
// sent rate-limit headers: a server without them costs no file work at all.
import type { Clock } from '../clock.js';
import { lazyRequire } from '../lazy-require.js';
import { withLock } from '../lock.js';
import { type BudgetState, hasRateHeaders, learn, takeSlot } from './rate-budget.js';

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
  private engaged = false;

  constructor(
    private readonly file: string,
    private readonly clock: Clock,
  ) {}

  async slot(): Promise<number> {
    if (!this.engaged) return 0;
    return this.update((state) => takeSlot(state, this.clock.now()));
  }

  async observe(headers: Headers): Promise<void> {
    if (!hasRateHeaders(headers)) return;
    this.engaged = true;
    await this.update((state) => ({ state: learn(state, headers, this.clock.now()), wait: 0 }));
  }

  private update(step: (state: BudgetState) => { state: BudgetState; wait: number }): Promise<number> {
    return withLock(this.file, async () => {
      const { state, wait } = step(await this.read());
      await fsp().writeFile(this.file, JSON.stringify(state), { mode: 0o600 });
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
