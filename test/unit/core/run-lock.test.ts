// The lock a whole run holds (a bulk journal, a chat checkpoint): refused while its holder lives, however long it has
// been stopped; a dead holder's (or a pid's used again since) taken over at once; one on another host refused, named.
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { lockRefused, takeOverHooks, withRunLock } from '../../../src/core/lock.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const dir = useTempDir();
const path = () => join(dir.path, 'run.journal');
const busy = () => new UsageError('in use');
const held = (run: () => Promise<unknown> = async () => 'ran') => withRunLock(path(), busy, run);

/** A lock folder as a holder left it. */
async function leftBy(holder: object | undefined, ageMs = 0): Promise<void> {
  await mkdir(`${path()}.lock`);
  if (holder) await writeFile(join(`${path()}.lock`, 'holder.json'), JSON.stringify(holder));
  const then = new Date(Date.now() - ageMs);
  await utimes(`${path()}.lock`, then, then);
}

/** A pid no process has now: a child's, reaped. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid!;
}

describe('withRunLock', () => {
  it('holds the lock while the section runs, names this process, and leaves nothing behind', async () => {
    const result = await held(async () => {
      const holder = JSON.parse(await readFile(join(`${path()}.lock`, 'holder.json'), 'utf8'));
      expect(holder).toMatchObject({ pid: process.pid, host: hostname() });
      return 'ran';
    });
    expect(result).toBe('ran');
    expect(await readdir(dir.path)).toEqual([]);
  });

  it('a second run while the first lives is refused, and the first keeps its lock', async () => {
    await held(async () => {
      await expect(held()).rejects.toThrow('in use');
      expect((await stat(`${path()}.lock`)).isDirectory()).toBe(true);
    });
  });

  it('a stopped holder (SIGSTOP) still holds, long after any staleness by age', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const { boot, started } = await identity(child.pid!);
      child.kill('SIGSTOP');
      await leftBy({ pid: child.pid, host: hostname(), boot, started }, 3_600_000);
      await expect(held()).rejects.toThrow('in use');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it("a dead holder's lock (kill -9) is taken over at once", async () => {
    await leftBy({ pid: deadPid(), host: hostname() });
    expect(await held()).toBe('ran');
  });

  it('a taker stopped between judging a dead holder and removing its lock never removes the lock another run took since', async () => {
    await leftBy({ pid: deadPid(), host: hostname() });
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const { boot, started } = await identity(other.pid!);
      const taken = { pid: other.pid, host: hostname(), boot, started };
      // While this taker is held (as if stopped past the take lock's 20 s), another run takes the dead holder's lock.
      takeOverHooks.judged = async () => {
        takeOverHooks.judged = undefined;
        await rm(`${path()}.lock`, { recursive: true });
        await leftBy(taken);
      };
      await expect(held()).rejects.toThrow('in use');
      expect(JSON.parse(await readFile(join(`${path()}.lock`, 'holder.json'), 'utf8'))).toEqual(taken);
      expect(await readdir(dir.path)).toEqual(['run.journal.lock']);
    } finally {
      takeOverHooks.judged = undefined;
      other.kill('SIGKILL');
    }
  });

  it('a pid used again since by another process is a dead holder', async () => {
    const { boot } = await identity(process.pid);
    await leftBy({ pid: process.pid, host: hostname(), boot, started: '1' });
    expect(await held()).toBe('ran');
  });

  it('a holder on another host cannot be asked: while its lock is fresh, refused, naming it and what to remove', async () => {
    await leftBy({ pid: 4242, host: 'elsewhere.example' }, 60_000);
    const error = (await held().catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      `in use (process 4242 on elsewhere.example; if no clinic runs there, remove ${path()}.lock)`,
    );
  });

  it('names the folder to remove as a shell takes it, a space or a quote in its path', async () => {
    const spaced = join(dir.path, "o'neil runs", 'run.journal');
    await mkdir(`${spaced}.lock`, { recursive: true });
    await writeFile(
      join(`${spaced}.lock`, 'holder.json'),
      JSON.stringify({ pid: 4242, host: 'elsewhere.example' }),
    );
    const error = (await withRunLock(spaced, busy, async () => 'ran').catch((e: unknown) => e)) as Error;
    const quoted = `'${dir.path}/o'\\''neil runs/run.journal.lock'`;
    expect(error.message).toBe(
      `in use (process 4242 on elsewhere.example; if no clinic runs there, remove ${quoted})`,
    );
  });

  it("another host's lock left unrefreshed for two minutes (a container restarted under a new name) is taken", async () => {
    await leftBy({ pid: 4242, host: 'elsewhere.example' }, 121_000);
    expect(await held()).toBe('ran');
  });

  it('a holder keeps its lock fresh while it runs (every 15 s)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      await held(async () => {
        const then = new Date(Date.now() - 100_000);
        await utimes(`${path()}.lock`, then, then);
        vi.advanceTimersByTime(15_000);
        await until(async () => Date.now() - (await stat(`${path()}.lock`)).mtimeMs < 10_000);
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a folder without a holder (an older clinic) holds while fresh, and is taken once old', async () => {
    await leftBy(undefined);
    await expect(held()).rejects.toThrow('in use');
    const then = new Date(Date.now() - 60_000);
    await utimes(`${path()}.lock`, then, then);
    expect(await held()).toBe('ran');
  });

  it('a folder that does not exist is a usage error naming it', async () => {
    const missing = join(dir.path, 'nope', 'run.journal');
    const error = await withRunLock(missing, busy, async () => 'ran').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      `cannot use ${missing}: the folder ${join(dir.path, 'nope')} does not exist`,
    );
  });

  // The lock library tries again on any error: a folder that refuses the lock was waited on for 48 s before failing.
  // Only a lock another process holds is waited for: with the clock stopped, a refusal still comes.
  it('only a refusal fails at once: a lock held, or raced for (ENOENT: another taker removed it), is tried again', () => {
    const failure = (code: string) => Object.assign(new Error(code), { code });
    for (const code of ['ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC'])
      expect(lockRefused(failure(code))).toBe(true);
    for (const code of ['ELOCKED', 'ENOENT', 'EEXIST', 'EBUSY'])
      expect(lockRefused(failure(code))).toBe(false);
    expect(lockRefused(new Error('no code'))).toBe(false);
  });

  it('a "folder" that is a file: a usage error at once, in words, no waiting', async () => {
    const file = join(dir.path, 'plain');
    await writeFile(file, 'x');
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    try {
      const error = await withRunLock(join(file, 'run.journal'), busy, async () => 'ran').catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toBe(
        `cannot use ${join(file, 'run.journal')}: a part of that path is a file, not a folder (run: ls -ld ${file} ` +
          'and its parents; move the file away, or choose another folder)',
      );
    } finally {
      vi.useRealTimers();
    }
  });
});

/** The boot id and start time /proc gives for `pid`, as the lock records them. */
async function identity(pid: number): Promise<{ boot: string; started: string }> {
  const boot = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
  const line = await readFile(`/proc/${pid}/stat`, 'utf8');
  return { boot, started: line.slice(line.lastIndexOf(')') + 2).split(' ')[19]! };
}

/** Waits (polling) until `predicate` holds, for 5 s at most. */
async function until(predicate: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 5_000; !(await predicate());) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
