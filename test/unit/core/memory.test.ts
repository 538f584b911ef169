import v8 from 'node:v8';
import { describe, expect, it, vi } from 'vitest';
import { collectOnGrowth, restoreV8Flags, youngGenerationCap } from '../../../src/core/memory.js';

const MiB = 2 ** 20;
const spaces = (young: number) => [
  {
    space_name: 'old_space',
    space_size: 64 * MiB,
    space_used_size: 0,
    space_available_size: 0,
    physical_space_size: 0,
  },
  {
    space_name: 'new_space',
    space_size: young,
    space_used_size: 0,
    space_available_size: 0,
    physical_space_size: 0,
  },
];

describe('the young generation of a long run', () => {
  it('may grow to 4 MiB, then is held there: V8 is told once', () => {
    const flags: string[] = [];
    const cap = youngGenerationCap({ setFlagsFromString: (flag: string) => void flags.push(flag) });
    expect(cap(spaces(1 * MiB))).toBe(false);
    expect(cap(spaces(2 * MiB))).toBe(false);
    expect(flags).toEqual([]);
    expect(cap(spaces(4 * MiB))).toBe(true);
    expect(cap(spaces(8 * MiB))).toBe(true);
    expect(flags).toEqual(['--semi-space-growth-factor=1']);
  });

  it('is held at once by a V8 that names no young space', () => {
    const flags: string[] = [];
    const cap = youngGenerationCap({ setFlagsFromString: (flag: string) => void flags.push(flag) });
    expect(cap(spaces(1 * MiB).slice(0, 1))).toBe(true);
    expect(flags).toEqual(['--semi-space-growth-factor=1']);
  });
});

describe('the V8 flags of a long run', () => {
  it('are set back to their defaults once the run is over, each on the engine that set it, once', () => {
    const flags: string[] = [];
    const cap = youngGenerationCap({ setFlagsFromString: (flag: string) => void flags.push(flag) });
    cap(spaces(4 * MiB));
    restoreV8Flags();
    expect(flags).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2']);
    restoreV8Flags();
    expect(flags).toHaveLength(2);
  });

  it('are set up again by a later run in the same process, and set back again after it', () => {
    const set = vi.spyOn(v8, 'setFlagsFromString');
    try {
      for (let run = 0; run < 2; run++) {
        collectOnGrowth();
        restoreV8Flags();
      }
      const gcFlags = set.mock.calls.map(([flag]) => flag).filter((flag) => flag.endsWith('expose-gc'));
      // A Node started with --expose-gc keeps its flag as it was given.
      const run = typeof globalThis.gc === 'function' ? [] : ['--expose-gc', '--no-expose-gc'];
      expect(gcFlags).toEqual([...run, ...run]);
    } finally {
      set.mockRestore();
    }
  });
});
