// Fault injection: parses the --faults spec and draws seeded outcomes, per /api request and, for ws-drop, per second.
import { createRandom, deriveSeed, type Random } from '../random.js';

/**
 * `lost`: the request is carried out, then the connection is reset instead of answering (a lost answer).
 * `ws-drop`: not per request but per second: the chance that every realtime connection drops at once.
 */
export type FaultKind = '5xx' | '429' | 'reset' | 'slow' | 'lost' | 'ws-drop';
/** Probability (0..1) of each fault kind per request; 0 for kinds the spec leaves out. */
export type FaultSpec = Readonly<Record<FaultKind, number>>;

export type FaultOutcome = 'none' | 'reset' | '500' | '503' | '429' | 'lost';

export interface FaultDraw {
  delayMs: number;
  outcome: FaultOutcome;
}

export const SLOW_FAULT_DELAY_MS = 1500;
const FAULT_KINDS: readonly FaultKind[] = ['5xx', '429', 'reset', 'slow', 'lost', 'ws-drop'];
const NO_FAULTS: FaultSpec = { '5xx': 0, '429': 0, reset: 0, slow: 0, lost: 0, 'ws-drop': 0 };

export function parseFaultSpec(spec: string): FaultSpec {
  const parsed: Record<FaultKind, number> = { ...NO_FAULTS };
  const seen = new Set<string>();
  for (const rawEntry of spec.split(',')) {
    const entry = rawEntry.trim();
    if (entry === '') continue;
    const [kind = '', probability, ...rest] = entry.split('=').map((part) => part.trim());
    if (probability === undefined || rest.length > 0) {
      throw new Error(`Bad fault entry "${entry}": expected kind=probability, e.g. 5xx=0.05.`);
    }
    if (!isFaultKind(kind)) {
      throw new Error(
        `Unknown fault kind "${kind}" in "${entry}": expected one of ${FAULT_KINDS.join(', ')}.`,
      );
    }
    if (seen.has(kind)) throw new Error(`Fault kind "${kind}" is given more than once.`);
    const value = probability === '' ? Number.NaN : Number(probability);
    if (!Number.isFinite(value) || value < 0 || value > 1) {
      throw new Error(`Fault probability for "${kind}" must be a number from 0 to 1, got "${probability}".`);
    }
    seen.add(kind);
    parsed[kind] = value;
  }
  return parsed;
}

function isFaultKind(kind: string): kind is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(kind);
}

export class FaultInjector {
  private spec: FaultSpec = NO_FAULTS;
  private random: Random;
  private realtimeRandom: Random;

  constructor(private readonly seed: number) {
    this.random = this.freshRandom();
    this.realtimeRandom = this.freshRealtimeRandom();
  }

  /** Replaces the spec and restarts the dice, so a spec replays the same fault sequence. */
  set(spec: FaultSpec | undefined): void {
    this.spec = spec ?? NO_FAULTS;
    this.random = this.freshRandom();
    this.realtimeRandom = this.freshRealtimeRandom();
  }

  /** The ws-drop probability per second (0 = off). */
  get realtimeDropChance(): number {
    return this.spec['ws-drop'];
  }

  /** One second's draw of ws-drop, on its own stream so it never shifts the per-request faults. */
  drawRealtimeDrop(): boolean {
    return this.spec['ws-drop'] > 0 && this.realtimeRandom() < this.spec['ws-drop'];
  }

  draw(): FaultDraw {
    const hits = (kind: FaultKind) => this.spec[kind] > 0 && this.random() < this.spec[kind];
    // Independent draws in a fixed order; slow combines with anything, the first failure wins.
    const delayMs = hits('slow') ? SLOW_FAULT_DELAY_MS : 0;
    if (hits('reset')) return { delayMs, outcome: 'reset' };
    if (hits('5xx')) return { delayMs, outcome: this.random() < 0.5 ? '503' : '500' };
    if (hits('429')) return { delayMs, outcome: '429' };
    if (hits('lost')) return { delayMs, outcome: 'lost' };
    return { delayMs, outcome: 'none' };
  }

  private freshRandom(): Random {
    // A different stream from the data generator, still derived from the seed.
    return createRandom(this.seed ^ 0x5eedfa17);
  }

  private freshRealtimeRandom(): Random {
    return createRandom(deriveSeed(this.seed, 'ws-drop'));
  }
}
