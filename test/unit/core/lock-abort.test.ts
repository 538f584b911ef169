// A wait for a lock another holder has is ended by Ctrl-C (the signal's reason), its section never run; without a
// signal, or once the holder lets go, the section runs as before.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withLock } from '../../../src/core/lock.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const dir = useTempDir('clinic-lock-abort-');

/** Holds `path`'s lock until the returned function is called. */
async function hold(path: string): Promise<() => Promise<void>> {
  let letGo!: () => void;
  let taken!: () => void;
  const isTaken = new Promise<void>((resolve) => (taken = resolve));
  const held = withLock(path, async () => {
    taken();
    await new Promise<void>((resolve) => (letGo = resolve));
  });
  await isTaken;
  return async () => {
    letGo();
    await held;
  };
}

describe('a wait for a lock', () => {
  it('ends when the signal aborts, with its reason, and the section never runs', async () => {
    const path = join(dir.path, 'budget.json');
    const letGo = await hold(path);
    const interrupt = new AbortController();
    let ran = false;
    const waiting = withLock(
      path,
      async () => {
        ran = true;
      },
      interrupt.signal,
    );
    setTimeout(() => interrupt.abort(new Error('interrupted')), 150);
    await expect(waiting).rejects.toThrow('interrupted');
    expect(ran).toBe(false);
    await letGo();
    // The lock is free again for whoever comes next.
    await expect(withLock(path, async () => 'next', new AbortController().signal)).resolves.toBe('next');
  });

  it('an aborted signal is not waited on at all; a free lock with a live signal is taken as ever', async () => {
    const path = join(dir.path, 'free.json');
    const stopped = new AbortController();
    stopped.abort(new Error('stopped before'));
    await expect(withLock(path, async () => 'ran', stopped.signal)).rejects.toThrow('stopped before');
    await expect(withLock(path, async () => 'ran', new AbortController().signal)).resolves.toBe('ran');
  });

  it('is waited out when the holder lets go, the signal untouched', async () => {
    const path = join(dir.path, 'wait.json');
    const letGo = await hold(path);
    const waiting = withLock(path, async () => 'after', new AbortController().signal);
    setTimeout(() => void letGo(), 100);
    await expect(waiting).resolves.toBe('after');
  });
});
