// Cross-process locks: one (proper-lockfile) around a short critical section, e.g. a refresh or a read-change-write of
// a file; one held for a whole run, by a process that must still live to hold it.
import { dirname } from 'node:path';
import { systemClock } from './clock.js';
import { ensurePrivateDir } from './config/private-file.js';
import { CliError, UsageError } from './errors.js';
import { lazyRequire } from './lazy-require.js';
import { shellWord, systemReason } from './system-error.js';
import { WaitingList } from './waiting-list.js';

/** CommonJS, so required: a dynamic import would start Node's ES module loader (some 5 ms of a run). */
const properLockfile = lazyRequire<typeof import('proper-lockfile')>('proper-lockfile');
const fsp = lazyRequire<typeof import('node:fs/promises')>('node:fs/promises');

/**
 * The sections of withLock running now. A run's end waits for them (locksReleased): a process Ctrl-C ends dies by
 * SIGINT, which runs no exit handler, and a lock it held then (a request given up on, still teaching the shared
 * rate-limit budget) was left behind: the profile's next command waited 20 s for it to go stale. Every update of the
 * budget joins and leaves it: a WaitingList, not a Set (waiting-list.ts).
 */
const sections = new WaitingList<Promise<unknown>>();

/** `section` while `path.lock` is held; `signal` (Ctrl-C) ends a wait for another process's lock with its reason. */
export async function withLock<T>(path: string, section: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const running = ensurePrivateDir(dirname(path)).then(() => whileLocked(path, section, signal));
  const link = sections.add(running);
  const over = () => void sections.remove(link);
  running.then(over, over);
  return running;
}

/** Resolves once the sections of withLock running now have ended and given their locks back, or after `ms`. */
export async function locksReleased(ms: number): Promise<void> {
  if (sections.size === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([Promise.allSettled(sections.values()), late]);
  clearTimeout(timer);
}

/** How a lock another process holds is waited for: 200 tries, 25 ms apart at first, growing to 250 ms (some 48 s). */
const LOCK_TRIES = 200;
const lockWait = (attempt: number) => Math.min(250, 25 * 1.2 ** attempt);

/** `section` while `path.lock` is held (no folder made or changed: the caller's is where the lock goes). */
async function whileLocked<T>(path: string, section: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const release = await takeLock(path, signal);
  try {
    return await section();
  } finally {
    await release().catch(() => undefined);
  }
}

/**
 * What a folder answers when it will never take the lock (a file where a folder should be, read-only, another user's,
 * full): failed at once, not after the 48 s of waiting the library gave any error.
 */
const REFUSALS = new Set([
  'ENOTDIR',
  'EACCES',
  'EPERM',
  'EROFS',
  'EISDIR',
  'ENAMETOOLONG',
  'ELOOP',
  'ENOSPC',
  'EDQUOT',
]);

/** Whether an error taking a lock is the folder's refusal (failed at once) rather than a lock held or raced for. */
export function lockRefused(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && REFUSALS.has(code);
}

/**
 * Takes `path.lock`, waiting while another process holds it, and trying again after any other error, as the library
 * does (two takers of a stale lock: one may remove the other's fresh lock under it, ENOENT); a refusal fails at once.
 */
async function takeLock(path: string, signal?: AbortSignal): Promise<() => Promise<void>> {
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    try {
      return await properLockfile().lock(path, {
        realpath: false,
        lockfilePath: `${path}.lock`,
        stale: 20_000,
        retries: 0,
        // A lock lost to a long pause (a suspended laptop) must not crash the run; the sections re-read what they
        // change.
        onCompromised: () => undefined,
      });
    } catch (error) {
      if (lockRefused(error) || attempt >= LOCK_TRIES) throw error;
      await systemClock.sleep(lockWait(attempt), signal);
    }
  }
}

/**
 * A lock held for a whole run (a bulk journal, a chat checkpoint): a folder `PATH.lock` naming its holder. Refused
 * while that process lives, however long it has been stopped (Ctrl-Z, a suspended laptop): a lock that went stale by
 * its age alone let a second run take it while the first was stopped, and both sent the same records. A dead holder's
 * lock (a crash, kill -9) is taken over at once. A holder on another host cannot be asked: its lock holds while it is
 * kept fresh (every 15 s), and for two minutes after; refused meanwhile, naming it.
 */
export async function withRunLock<T>(path: string, busy: () => Error, section: () => Promise<T>): Promise<T> {
  const dir = `${path}.lock`;
  const me = await ownIdentity();
  // One taker at a time: two runs that both found a dead holder must not both take its place.
  try {
    await fsp().stat(dirname(path)); // a missing folder fails now, not after the lock's retries
    await whileLocked(`${path}.take`, () => takeRunLock(dir, me, busy));
  } catch (error) {
    // A file system's refusal (a folder that is missing, read-only or not the user's) is the user's to mend: exit 2.
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof CliError || typeof code !== 'string') throw error;
    throw new UsageError(
      code === 'ENOENT'
        ? `cannot use ${path}: the folder ${dirname(path)} does not exist`
        : `cannot use ${path}: ${systemReason(error, path)}`,
    );
  }
  // Seen from another host, a lock is held while it is kept fresh (a container restarted under a new host name must
  // not find its crashed predecessor's lock held for ever).
  const heartbeat = setInterval(() => {
    const now = new Date();
    fsp()
      .utimes(dir, now, now)
      .catch(() => undefined);
  }, HEARTBEAT_MS).unref();
  try {
    return await section();
  } finally {
    clearInterval(heartbeat);
    const holder = await readHolder(dir).catch(() => undefined);
    if (typeof holder === 'object' && holder.pid === me.pid && holder.host === me.host)
      await fsp().rm(dir, { recursive: true, force: true });
  }
}

/** Who holds a run lock: enough for a run on the same host to tell whether that process still lives. */
interface Holder {
  pid: number;
  host: string;
  /** The kernel's boot id and the process's start time (Linux): a pid used again after a crash is another process. */
  boot?: string;
  started?: string;
}

const HOLDER_FILE = 'holder.json';

/** How old a lock folder without a holder (an older clinic's, kept fresh while its run lived) may be and still hold. */
const UNNAMED_STALE_MS = 10_000;

/**
 * How often a holder keeps its lock fresh, and how long a lock of another host holds without it: that host cannot be
 * asked whether its process lives (a host paused for longer, sharing the folder, would lose its lock).
 */
const HEARTBEAT_MS = 15_000;
const OTHER_HOST_STALE_MS = 120_000;

/**
 * A test's way in between judging a dead holder's lock and removing it: where a taker stopped (Ctrl-Z, a suspended
 * laptop) for longer than the take lock's staleness would resume, another run having taken the lock meanwhile.
 */
export const takeOverHooks: { judged?: () => Promise<void> } = {};

async function takeRunLock(dir: string, me: Holder, busy: () => Error): Promise<void> {
  const holder = await readHolder(dir);
  if (holder !== undefined) {
    if (holder === 'unnamed' ? await freshFolder(dir, UNNAMED_STALE_MS) : await lives(holder, dir)) {
      if (holder === 'unnamed' || holder.host === me.host) throw busy();
      const error = busy();
      error.message += ` (process ${holder.pid} on ${holder.host}; if no clinic runs there, remove ${shellWord(dir)})`;
      throw error;
    }
    await removeDead(dir, holder, busy);
  }
  try {
    await fsp().mkdir(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw busy();
    throw error;
  }
  await fsp().writeFile(`${dir}/${HOLDER_FILE}`, JSON.stringify(me), { mode: 0o600 });
}

/**
 * Removes the lock of a holder judged dead, and only that one: the folder is first moved aside (one rename, which
 * only one taker can make of one folder), then checked to still name the dead holder. One that names another (a run
 * that took the lock while this taker was stopped past the take lock's staleness) is put back, and this run refused.
 */
async function removeDead(dir: string, dead: Holder | 'unnamed', busy: () => Error): Promise<void> {
  const judged = await fsp()
    .stat(dir)
    .catch(() => undefined);
  await takeOverHooks.judged?.();
  const aside = `${dir}.dead-${process.pid}-${Date.now().toString(36)}`;
  try {
    await fsp().rename(dir, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // removed by another taker: take it
    throw error;
  }
  const moved = await fsp()
    .stat(aside)
    .catch(() => undefined);
  const now = await readHolder(aside).catch(() => undefined);
  const same =
    judged !== undefined &&
    moved?.ino === judged.ino &&
    (now === 'unnamed' || dead === 'unnamed' ? now === dead : sameHolder(now, dead));
  if (!same) {
    await fsp()
      .rename(aside, dir)
      .catch(() => undefined);
    throw busy();
  }
  await fsp().rm(aside, { recursive: true, force: true });
}

const sameHolder = (a: Holder | 'unnamed' | undefined, b: Holder): boolean =>
  typeof a === 'object' &&
  a.pid === b.pid &&
  a.host === b.host &&
  a.boot === b.boot &&
  a.started === b.started;

/** The holder named in `dir`; 'unnamed' for a folder without one; undefined when there is no lock. */
async function readHolder(dir: string): Promise<Holder | 'unnamed' | undefined> {
  try {
    const holder = JSON.parse(await fsp().readFile(`${dir}/${HOLDER_FILE}`, 'utf8')) as Partial<Holder>;
    if (Number.isSafeInteger(holder.pid) && typeof holder.host === 'string') return holder as Holder;
    return 'unnamed';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
    return (await fsp()
      .stat(dir)
      .then(() => true)
      .catch(() => false))
      ? 'unnamed'
      : undefined;
  }
}

async function freshFolder(dir: string, staleMs: number): Promise<boolean> {
  const stat = await fsp()
    .stat(dir)
    .catch(() => undefined);
  return stat !== undefined && Date.now() - stat.mtimeMs < staleMs;
}

/** Whether the holder still runs (one on another host, which cannot be asked: while it keeps its lock fresh). */
async function lives(holder: Holder, dir: string): Promise<boolean> {
  if (holder.host !== hostname()) return freshFolder(dir, OTHER_HOST_STALE_MS);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  // That pid runs: the holder, unless it is a process started since (Linux tells by its boot and start time).
  const now = await identityOf(holder.pid);
  return (
    now.started === undefined ||
    holder.started === undefined ||
    (now.boot === holder.boot && now.started === holder.started)
  );
}

async function ownIdentity(): Promise<Holder> {
  return { pid: process.pid, host: hostname(), ...(await identityOf(process.pid)) };
}

/** The boot id and the start time (clock ticks since boot) of `pid`, where /proc has them. */
async function identityOf(pid: number): Promise<{ boot?: string; started?: string }> {
  try {
    const [boot, stat] = await Promise.all([
      fsp().readFile('/proc/sys/kernel/random/boot_id', 'utf8'),
      fsp().readFile(`/proc/${pid}/stat`, 'utf8'),
    ]);
    // Fields after the command name (in parentheses, which may hold spaces): the 22nd field is the start time.
    const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return started ? { boot: boot.trim(), started } : {};
  } catch {
    return {};
  }
}

const hostname = () => (process.getBuiltinModule('node:os') as typeof import('node:os')).hostname();
