// The ids an export has written, kept as runs of consecutive integers so that millions of them cost a few bytes.

/** How many ids that are not integers (strings, fractions) are remembered; past it, later ones go unchecked. */
export const MAX_OTHER_IDS = 1_000_000;

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
  private distinct = 0;
  /** True once an id could not be remembered because the set of non-integer ids was full. */
  overflowed = false;

  constructor(private readonly maxOtherIds = MAX_OTHER_IDS) {}

  /** Ids added (each counted once). */
  get size(): number {
    return this.distinct;
  }

  /** Entries held in memory (runs, waiting integers, other ids): small for runs of consecutive ids. */
  get footprint(): number {
    return this.runs + this.batch.size + this.others.size;
  }

  has(id: string | number): boolean {
    if (!Number.isSafeInteger(id)) return this.others.has(id);
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
    else {
      this.batch.add(n);
      if (this.batch.size >= Math.max(MIN_BATCH, this.runs >> 1)) this.merge();
    }
    return true;
  }

  private addOther(id: string | number): boolean {
    if (this.others.has(id)) return false;
    if (this.others.size >= this.maxOtherIds) {
      this.overflowed = true;
      return true;
    }
    this.others.add(id);
    this.distinct++;
    return true;
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
