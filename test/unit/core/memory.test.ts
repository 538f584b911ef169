import { execFileSync } from 'node:child_process';
import v8 from 'node:v8';
import { describe, expect, it, vi } from 'vitest';
import {
  collectOnGrowth,
  collectYoungWhenFull,
  restoreV8Flags,
  tierUpLater,
  youngGenerationCap,
} from '../../../src/core/memory.js';

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

describe('a long run tiers up later', () => {
  const recorder = () => {
    const flags: string[] = [];
    return { flags, engine: { setFlagsFromString: (flag: string) => void flags.push(flag) } };
  };

  it("raises V8's interrupt budget on a V8 whose default it knows, and sets that default back at the end", () => {
    const { flags, engine } = recorder();
    tierUpLater(engine, '11.3.244.8-node.33');
    expect(flags).toEqual(['--interrupt-budget=600000']);
    restoreV8Flags();
    expect(flags).toEqual(['--interrupt-budget=600000', '--interrupt-budget=67584']);
  });

  it('leaves a V8 whose default it does not know as it is, and a budget given to Node', () => {
    const { flags, engine } = recorder();
    tierUpLater(engine, '99.1.0');
    tierUpLater(engine, '11.3.244.8-node.33', ['--max-old-space-size=100', '--interrupt-budget=1000']);
    restoreV8Flags();
    expect(flags).toEqual([]);
  });

  it("sets back exactly this V8's own default (a code cache made under another value is refused)", () => {
    const { flags, engine } = recorder();
    tierUpLater(engine, process.versions.v8);
    restoreV8Flags();
    // Node 20's V8 (11.3), which engines allow and CI runs, is tuned; a V8 not tuned has nothing to set back.
    if (process.versions.v8.startsWith('11.3.')) expect(flags).toHaveLength(2);
    if (flags.length === 0) return;
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    const own = /--interrupt-budget \(.*\)\n\s+type: int\s+default: (--interrupt-budget=\d+)/.exec(
      options,
    )?.[1];
    expect(own).toBeDefined();
    expect(flags[1]).toBe(own);
  });
});

describe("a run's young generation is collected once full, not by V8's task at 80% of it", () => {
  const recorder = () => {
    const flags: string[] = [];
    return { flags, engine: () => ({ setFlagsFromString: (flag: string) => void flags.push(flag) }) };
  };

  it("is set on a V8 whose default it knows, once a run, and that default set back at the run's end", () => {
    const { flags, engine } = recorder();
    collectYoungWhenFull(engine, '11.3.244.8-node.33', []);
    collectYoungWhenFull(engine, '11.3.244.8-node.33', []);
    expect(flags).toEqual(['--minor-gc-task-trigger=100']);
    restoreV8Flags();
    expect(flags).toEqual(['--minor-gc-task-trigger=100', '--minor-gc-task-trigger=80']);
    collectYoungWhenFull(engine, '11.3.244.8-node.33', []);
    restoreV8Flags();
    expect(flags).toHaveLength(4);
  });

  it('is set back when a long run starts: a long run collects as V8 would', () => {
    const { flags, engine } = recorder();
    collectYoungWhenFull(engine, '11.3.244.8-node.33', []);
    collectOnGrowth();
    expect(flags).toEqual(['--minor-gc-task-trigger=100', '--minor-gc-task-trigger=80']);
    restoreV8Flags();
    expect(flags).toHaveLength(2);
  });

  it('leaves a V8 whose default it does not know as it is, and a Node given a trigger or no task', () => {
    const { flags, engine } = recorder();
    collectYoungWhenFull(engine, '12.4.254.21-node.33', []);
    collectYoungWhenFull(engine, '11.3.244.8-node.33', ['--minor-gc-task-trigger=50']);
    collectYoungWhenFull(engine, '11.3.244.8-node.33', ['', '--no-minor-gc-task']);
    collectYoungWhenFull(engine, '11.3.244.8-node.33', ['--minor_gc_task_trigger=90']);
    restoreV8Flags();
    expect(flags).toEqual([]);
  });

  it("sets back exactly this V8's own default (a code cache made under another value is refused)", () => {
    const { flags, engine } = recorder();
    collectYoungWhenFull(engine, process.versions.v8, []);
    restoreV8Flags();
    if (process.versions.v8.startsWith('11.3.')) expect(flags).toHaveLength(2);
    if (flags.length === 0) return;
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    const own = /--minor-gc-task-trigger \(.*\)\n\s+type: int\s+default: (--minor-gc-task-trigger=\d+)/.exec(
      options,
    )?.[1];
    expect(own).toBeDefined();
    expect(flags[1]).toBe(own);
  });
});
