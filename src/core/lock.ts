// A cross-process lock (proper-lockfile) around a critical section, e.g. a refresh or a read-change-write of a file.
import { dirname } from 'node:path';
import { ensurePrivateDir } from './config/private-file.js';
import { lazyRequire } from './lazy-require.js';

/** CommonJS, so required: a dynamic import would start Node's ES module loader (some 5 ms of a run). */
const properLockfile = lazyRequire<typeof import('proper-lockfile')>('proper-lockfile');

export async function withLock<T>(path: string, section: () => Promise<T>): Promise<T> {
  const lockfile = properLockfile();
  await ensurePrivateDir(dirname(path));
  const release = await lockfile.lock(path, {
    realpath: false,
    lockfilePath: `${path}.lock`,
    stale: 20_000,
    retries: { retries: 200, factor: 1.2, minTimeout: 25, maxTimeout: 250 },
    // A lock lost to a long pause (a suspended laptop) must not crash the run; the sections re-read what they change.
    onCompromised: () => undefined,
  });
  try {
    return await section();
  } finally {
    await release().catch(() => undefined);
  }
}

/**
 * A lock held for a whole run (a bulk journal), refused while another live process holds it. A lock left by a killed
 * process goes stale within seconds (its holder refreshes it), so a run right after a crash waits a moment instead.
 */
export async function withRunLock<T>(path: string, busy: () => Error, section: () => Promise<T>): Promise<T> {
  const lockfile = properLockfile();
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(path, {
      realpath: false,
      lockfilePath: `${path}.lock`,
      stale: 5_000,
      retries: { retries: 12, factor: 1, minTimeout: 500, maxTimeout: 500 },
      onCompromised: () => undefined,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw busy();
    throw error;
  }
  try {
    return await section();
  } finally {
    await release().catch(() => undefined);
  }
}
