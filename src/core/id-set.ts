// The ids an export has written, kept as runs of consecutive integers so that millions of them cost a few bytes.
import { lazyRequire } from './lazy-require.js';

const crypto = lazyRequire<typeof import('node:crypto')>('node:crypto');

/** How many ids that are not integers (strings, fractions) are remembered; past it, later ones go unchecked. */
export const MAX_OTHER_IDS = 1_000_000;

/**
 * How many runs (and integers waiting to join them) are kept: 16 bytes each, so ids that never touch (2, 4, 6…)
 * hold at most 16 MiB; past it, integers that would start a run go unchecked.
 */
export const MAX_RUNS = 1_000_000;

/**
 * A string id longer than this is remembered by its SHA-256 instead of whole: what a server chooses to send as an id
 * (200 KB each) must not decide how much memory an export holds. Shorter ones (a UUID, a ULID) are kept as they are.
 */
export const MAX_KEPT_ID_LENGTH = 64;

/** Integers waiting to be merged into the runs never wait in a batch smaller than this. */
const MIN_BATCH = 256;

/**
 * A set of record ids. Safe integers live in sorted, disjoint runs `[start, end]` (two typed arrays): ascending or
 * descending ids extend one run in place, so a whole export of consecutive ids is one run. An integer that extends no
 * run waits in a small batch that is sorted and merged into the runs when it grows (cost amortised, O(log n) a look-up).
 * Other ids (strings, fractions) go in a plain Set, bounded (MAX_OTHER_IDS by default).
 */
export class IdSet {
  private starts = new Float64Array(0);
  private ends = new Float64Array(0);
  private runs = 0;
  private readonly batch = new Set<number>();
  private readonly others = new Set<string | number>();
  /** Long string ids, by their digest (a separate set: a short id that happens to read as a digest is not one). */
  private readonly digests = new Set<string | number>();
  private distinct = 0;
  /** True once an id could not be remembered because a bound (MAX_OTHER_IDS, MAX_RUNS) was reached. */
  overflowed = false;

  constructor(
    private readonly maxOtherIds = MAX_OTHER_IDS,
    private readonly maxRuns = MAX_RUNS,
  ) {}

  /** Ids added (each counted once). */
  get size(): number {
    return this.distinct;
  }

  /** Entries held in memory (runs, waiting integers, other ids): small for runs of consecutive ids. */
  get footprint(): number {
    return this.runs + this.batch.size + this.others.size + this.digests.size;
  }

  has(id: string | number): boolean {
    if (!Number.isSafeInteger(id)) {
      const { set, key } = this.kept(id);
      return set.has(key);
    }
    const n = id as number;
    const at = this.runAtOrBefore(n);
    return (at >= 0 && n <= this.ends[at]!) || this.batch.has(n);
  }

  /** Adds `id`; false when it was there already (a repeat). */
  add(id: string | number): boolean {
    if (!Number.isSafeInteger(id)) return this.addOther(id);
    const n = id as number;
    const at = this.runAtOrBefore(n);
    if ((at >= 0 && n <= this.ends[at]!) || this.batch.has(n)) return false;
    this.distinct++;
    // `n` is in no run, so growing a neighbour by one never overlaps the next run.
    if (at >= 0 && n === this.ends[at]! + 1) this.ends[at] = n;
    else if (at + 1 < this.runs && n === this.starts[at + 1]! - 1) this.starts[at + 1] = n;
    else if (this.runs + this.batch.size >= this.maxRuns) {
      this.distinct--;
      this.overflowed = true;
    } else {
      this.batch.add(n);
      if (this.batch.size >= Math.max(MIN_BATCH, this.runs >> 1)) this.merge();
    }
    return true;
  }

  private addOther(id: string | number): boolean {
    const { set, key } = this.kept(id);
    if (set.has(key)) return false;
    if (this.others.size + this.digests.size >= this.maxOtherIds) {
      this.overflowed = true;
      return true;
    }
    set.add(key);
    this.distinct++;
    return true;
  }

  /** Where a non-integer id is kept, and as what: a long string by its SHA-256 (base64), anything else as it is. */
  private kept(id: string | number): { set: Set<string | number>; key: string | number } {
    return typeof id === 'string' && id.length > MAX_KEPT_ID_LENGTH
      ? { set: this.digests, key: crypto().createHash('sha256').update(id).digest('base64') }
      : { set: this.others, key: id };
  }

  /** Index of the last run starting at or before `n`, or -1. */
  private runAtOrBefore(n: number): number {
    let low = 0;
    let high = this.runs - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if (this.starts[mid]! <= n) low = mid + 1;
      else high = mid - 1;
    }
    return high;
  }

  /** Sorts the waiting integers into the runs, joining runs that touch. */
  private merge(): void {
    const incoming = Float64Array.from(this.batch).sort();
    this.batch.clear();
    const starts = new Float64Array(this.runs + incoming.length);
    const ends = new Float64Array(this.runs + incoming.length);
    let count = 0;
    let run = 0;
    let next = 0;
    while (run < this.runs || next < incoming.length) {
      let start: number;
      let end: number;
      if (next >= incoming.length || (run < this.runs && this.starts[run]! <= incoming[next]!)) {
        start = this.starts[run]!;
        end = this.ends[run++]!;
      } else {
        start = end = incoming[next++]!;
      }
      if (count > 0 && start <= ends[count - 1]! + 1) {
        if (end > ends[count - 1]!) ends[count - 1] = end;
      } else {
        starts[count] = start;
        ends[count++] = end;
      }
    }
    this.starts = starts;
    this.ends = ends;
    this.runs = count;
  }
}
