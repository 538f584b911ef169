// A cross-process lock (proper-lockfile) around a critical section, e.g. a refresh or a read-change-write of a file.
import { dirname } from 'node:path';
import { ensurePrivateDir } from './config/private-file.js';

export async function withLock<T>(path: string, section: () => Promise<T>): Promise<T> {
  const { default: lockfile } = await import('proper-lockfile');
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
