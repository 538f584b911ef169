import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { transformSync } from 'esbuild';
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
  it('reaches 8 MiB at its next growth, whatever its size now, then is held there: V8 is told once each', () => {
    const flags: string[] = [];
    const cap = youngGenerationCap({ setFlagsFromString: (flag: string) => void flags.push(flag) });
    expect(cap(spaces(1 * MiB))).toBe(false);
    expect(flags).toEqual(['--semi-space-growth-factor=8']);
    expect(cap(spaces(1 * MiB))).toBe(false);
    expect(cap(spaces(2 * MiB))).toBe(false); // grown by V8 before the run began
    expect(flags).toEqual(['--semi-space-growth-factor=8', '--semi-space-growth-factor=4']);
    expect(cap(spaces(8 * MiB))).toBe(true);
    expect(cap(spaces(16 * MiB))).toBe(true);
    expect(flags).toEqual([
      '--semi-space-growth-factor=8',
      '--semi-space-growth-factor=4',
      '--semi-space-growth-factor=1',
    ]);
  });

  it('is held at once by a V8 that names no young space, or one already past 8 MiB', () => {
    for (const given of [spaces(1 * MiB).slice(0, 1), spaces(16 * MiB)]) {
      const flags: string[] = [];
      const cap = youngGenerationCap({ setFlagsFromString: (flag: string) => void flags.push(flag) });
      expect(cap(given)).toBe(true);
      expect(flags).toEqual(['--semi-space-growth-factor=1']);
    }
  });

  it('is the same in a short run as in a long one: a real V8 grows it to 8 MiB in one step and holds it there', () => {
    // memory.ts stands alone: built to JavaScript, it runs in a Node of its own, whose young generation is fresh.
    const dir = mkdtempSync(join(tmpdir(), 'clinic-memory-'));
    const module = join(dir, 'memory.mjs');
    const source = readFileSync(new URL('../../../src/core/memory.ts', import.meta.url), 'utf8');
    writeFileSync(module, transformSync(source, { loader: 'ts', format: 'esm' }).code);
    const script = `
      import { collectOnGrowth, restoreV8Flags } from ${JSON.stringify(pathToFileURL(module).href)};
      import v8 from 'node:v8';
      const young = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
      const tidy = collectOnGrowth();
      const sizes = new Set([young() / 2 ** 20]);
      const kept = [];
      for (let page = 0; page < 600; page++) {
        // A page of records, a few pages alive at a time (pages in flight).
        kept.push(Array.from({ length: 100 }, (_, i) => ({ id: page * 100 + i, name: 'x'.repeat(20 + (i % 7)) })));
        if (kept.length > 4) kept.shift();
        tidy();
        sizes.add(young() / 2 ** 20);
      }
      restoreV8Flags();
      console.log(JSON.stringify([...sizes]));`;
    try {
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      const sizes = JSON.parse(out) as number[];
      expect(Math.max(...sizes)).toBe(8);
      expect(sizes.filter((size) => size > 2 && size < 8)).toEqual([]); // one step, not by doubling
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('one step short of the cap, or past it, is held where it is; a young generation flag given to Node is obeyed', () => {
    const flags: string[] = [];
    const engine = { setFlagsFromString: (flag: string) => void flags.push(flag) };
    expect(youngGenerationCap(engine)(spaces(6 * MiB))).toBe(true); // 6 × 2 would be 12 MiB
    expect(flags).toEqual(['--semi-space-growth-factor=1']);
    for (const given of [
      ['--max-semi-space-size=32'],
      ['--semi_space_growth_factor=3'],
      ['--min-semi-space-size=16'],
    ]) {
      const untouched: string[] = [];
      const own = youngGenerationCap(
        { setFlagsFromString: (flag: string) => void untouched.push(flag) },
        given,
      );
      expect(own(spaces(1 * MiB))).toBe(true);
      expect(untouched).toEqual([]);
    }
    restoreV8Flags();
  });

  it("is set back to this V8's own default growth factor (a code cache made under another value is refused)", () => {
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    const own =
      /--semi-space-growth-factor \(.*\)\n\s+type: int\s+default: (--semi-space-growth-factor=\d+)/.exec(
        options,
      )?.[1];
    const flags: string[] = [];
    youngGenerationCap({ setFlagsFromString: (flag: string) => void flags.push(flag) })(spaces(16 * MiB));
    restoreV8Flags();
    expect(flags).toEqual(['--semi-space-growth-factor=1', own]);
  });
});

describe('the V8 flags of a long run', () => {
  it('are set back to their defaults once the run is over, each on the engine that set it, once', () => {
    const flags: string[] = [];
    const cap = youngGenerationCap({ setFlagsFromString: (flag: string) => void flags.push(flag) });
    cap(spaces(2 * MiB));
    cap(spaces(8 * MiB));
    restoreV8Flags();
    expect(flags).toEqual([
      '--semi-space-growth-factor=4',
      '--semi-space-growth-factor=1',
      '--semi-space-growth-factor=2',
    ]);
    restoreV8Flags();
    expect(flags).toHaveLength(3);
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
