// The id set of long exports: a Set for any sequence of ids, a few entries for millions of consecutive ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { IdSet, MAX_KEPT_ID_LENGTH, MAX_OTHER_IDS, MAX_RUNS } from '../../../src/core/id-set.js';

/** Ids as exports see them: integers close together (so runs form, touch and merge), and some that are not. */
const anId = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: -40, max: 400 }) },
  { weight: 1, arbitrary: fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }) },
  { weight: 1, arbitrary: fc.constantFrom('7', 'a', '', 'uuid-1', '0x10') },
  // Long string ids, kept by their digest: some differ only in their last character.
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(65), `${'x'.repeat(64)}y`, 'z'.repeat(300)) },
  { weight: 1, arbitrary: fc.constantFrom(1.5, -0.25, 2 ** 53, -(2 ** 60)) },
);

describe('IdSet', () => {
  it('behaves as a Set for any sequence of adds (answers, size and membership)', () => {
    fc.assert(
      fc.property(fc.array(anId, { maxLength: 1500 }), fc.array(anId, { maxLength: 50 }), (ids, probes) => {
        const set = new IdSet();
        const model = new Set<string | number>();
        for (const id of ids) {
          expect(set.add(id)).toBe(!model.has(id));
          model.add(id);
          expect(set.size).toBe(model.size);
        }
        for (const id of [...ids, ...probes]) expect(set.has(id)).toBe(model.has(id));
      }),
      { numRuns: 300 },
    );
  });

  it('holds runs in any order (ascending, descending, interleaved, shuffled) exactly', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(Array.from({ length: 3000 }, (_, i) => i * 3 - 900)), (ids) => {
        const set = new IdSet();
        for (const id of ids) set.add(id);
        for (const id of ids) set.add(id + 1);
        const model = new Set(ids.flatMap((id) => [id, id + 1]));
        const wrong: number[] = [];
        for (let id = -905; id <= 8105; id++) if (set.has(id) !== model.has(id)) wrong.push(id);
        expect(wrong).toEqual([]);
        expect(set.size).toBe(model.size);
      }),
      { numRuns: 20 },
    );
  });

  it('keeps a million ascending ids in a handful of entries, and repeats are caught', () => {
    const set = new IdSet();
    let peak = 0;
    for (let id = 1; id <= 1_000_000; id++) {
      set.add(id);
      if (set.footprint > peak) peak = set.footprint;
    }
    expect(set.size).toBe(1_000_000);
    expect(peak).toBeLessThanOrEqual(256);
    expect(set.footprint).toBeLessThanOrEqual(256);
    expect(set.add(1)).toBe(false);
    expect(set.add(500_000)).toBe(false);
    expect(set.add(1_000_000)).toBe(false);
    expect(set.add(1_000_001)).toBe(true);
    expect(set.has(0)).toBe(false);
  });

  it('keeps a million descending ids, or pages of them shifted back by insertions, small too', () => {
    const set = new IdSet();
    for (let id = 1_000_000; id >= 1; id--) set.add(id);
    expect(set.footprint).toBeLessThanOrEqual(256);
    // Newest first, 4 inserted between pages: each page starts with 4 ids already written.
    const shifted = new IdSet();
    let repeats = 0;
    for (let top = 1_000_000; top > 0; top -= 96)
      for (let id = top; id > Math.max(0, top - 100); id--) if (!shifted.add(id)) repeats++;
    expect(shifted.size).toBe(1_000_000);
    expect(repeats).toBeGreaterThan(40_000);
    expect(shifted.footprint).toBeLessThanOrEqual(256);
  });

  it('stops remembering non-integer ids past its bound, and says so', () => {
    expect(MAX_OTHER_IDS).toBe(1_000_000);
    const set = new IdSet(1000);
    for (let i = 0; i < 1000; i++) set.add(`id-${i}`);
    expect(set.overflowed).toBe(false);
    expect(set.add('id-0')).toBe(false);
    expect(set.add('one-more')).toBe(true);
    expect(set.overflowed).toBe(true);
    expect(set.footprint).toBe(1000);
    // Integers are still checked exactly.
    expect(set.add(5)).toBe(true);
    expect(set.add(5)).toBe(false);
  });

  it('keeps a long string id by its digest: exact, and a few bytes whatever its length', () => {
    const long = (n: number, last: string) => `${String(n).padStart(8, '0')}${'x'.repeat(200_000)}${last}`;
    const set = new IdSet();
    expect(set.add(long(1, 'a'))).toBe(true);
    expect(set.add(long(1, 'b'))).toBe(true);
    expect(set.add(long(1, 'a'))).toBe(false);
    expect(set.has(long(1, 'b'))).toBe(true);
    expect(set.has(long(2, 'a'))).toBe(false);
    // A short id that reads as the digest of a long one is another id.
    const digest = createHash('sha256').update(long(1, 'a')).digest('base64');
    expect(digest.length).toBeLessThanOrEqual(MAX_KEPT_ID_LENGTH);
    expect(set.add(digest)).toBe(true);
    expect(set.size).toBe(3);

    // 200 ids of 1 MB: the set keeps none of them.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    const big = new IdSet();
    for (let i = 0; i < 200; i++) big.add(`${i}:${'y'.repeat(1_000_000)}`);
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(10 * 2 ** 20);
    expect(big.size).toBe(200);
    expect(big.add(`7:${'y'.repeat(1_000_000)}`)).toBe(false);
  });

  it('stops remembering integers that would start a run past its bound, and says so', () => {
    expect(MAX_RUNS).toBe(1_000_000);
    const set = new IdSet(MAX_OTHER_IDS, 600);
    for (let id = 0; id < 3000; id += 2) set.add(id);
    expect(set.overflowed).toBe(true);
    expect(set.footprint).toBeLessThanOrEqual(600);
    // What it holds is still checked exactly, and a run it holds still grows.
    expect(set.add(0)).toBe(false);
    expect(set.add(1)).toBe(true);
    expect(set.add(1)).toBe(false);
    expect(set.footprint).toBeLessThanOrEqual(600);
  });
});
