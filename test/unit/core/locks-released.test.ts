// A run's end waits for the locked sections still running (a request given up on, teaching the shared rate-limit
// budget): a process Ctrl-C ends dies by SIGINT, which runs no exit handler, and a lock it held then was left behind
// for the profile's next command to wait 20 s on.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../../src/cli/context.js';
import { parseGlobals } from '../../../src/cli/globals.js';
import { locksReleased, withLock } from '../../../src/core/lock.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const dir = useTempDir('clinic-locks-released-');

/** A section under `path`'s lock that ends `ms` after it began, or when ended; resolves once it holds the lock. */
async function sectionFor(path: string, ms: number): Promise<{ done: Promise<void>; end: () => void }> {
  let taken!: () => void;
  let end!: () => void;
  const holding = new Promise<void>((resolve) => (taken = resolve));
  const done = withLock(path, () => {
    taken();
    return new Promise<void>((resolve) => {
      end = resolve;
      if (ms !== Infinity) setTimeout(resolve, ms);
    });
  });
  await holding;
  return { done, end };
}

describe("a run's end and the locks its sections hold", () => {
  it('waits for the sections running to end and give their locks back', async () => {
    const path = join(dir.path, 'budget.json');
    const { done } = await sectionFor(path, 150);
    expect(existsSync(`${path}.lock`)).toBe(true);
    const started = performance.now();
    await locksReleased(5000);
    expect(performance.now() - started).toBeGreaterThan(100);
    expect(existsSync(`${path}.lock`)).toBe(false);
    await done;
    await locksReleased(5000); // none running: at once
  });

  it('waits no longer than it is given for a section that does not end', async () => {
    const path = join(dir.path, 'stuck.json');
    const stuck = await sectionFor(path, Infinity);
    const started = performance.now();
    await locksReleased(100);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(existsSync(`${path}.lock`)).toBe(true);
    stuck.end();
    await stuck.done;
  });

  it("is the context's close: a command's run ends only once the budget's lock is given back", async () => {
    const config = await mkdtemp(join(tmpdir(), 'clinic-ctx-'));
    try {
      const env = { CLINIC_CONFIG_DIR: config };
      const streams = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() };
      const ctx = createContext({ streams, env }, parseGlobals({}, env));
      const path = join(dir.path, 'ctx.json');
      const { done } = await sectionFor(path, 150);
      expect(existsSync(`${path}.lock`)).toBe(true);
      await ctx.close();
      expect(existsSync(`${path}.lock`)).toBe(false);
      await done;
    } finally {
      await rm(config, { recursive: true, force: true });
    }
  });
});
