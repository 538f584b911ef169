// The journal's file, by its descriptor: appends are synchronous write(2)s (a few microseconds into the page cache,
// never interleaved, and no thread to wake), and fdatasync runs either right here, blocking, when the run has nothing
// else to do meanwhile (one record at a time: as the hand-written floor does), or in libuv's thread pool while
// requests are in flight (their answers are read while the disk works). Tests count the calls through this interface.
import {
  close,
  closeSync,
  constants,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  openSync,
  writeSync,
} from 'node:fs';
import { promisify } from 'node:util';
import { anotherUsers, othersCouldWrite } from '../config/private-file.js';
import { UsageError } from '../errors.js';
import { shellWord } from '../system-error.js';

export interface JournalFile {
  /** Appends `text` whole (write(2) may take less than all of it: the rest follows). */
  append(text: string): void;
  /** fdatasync(2) here and now; returns when everything appended is on disk. */
  datasync(): void;
  /** fdatasync(2) in the thread pool, so the event loop goes on meanwhile. */
  datasyncInBackground(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens `path`: 'wx' makes a new journal (never through a symbolic link: O_EXCL); 'a' appends to one, never through a
 * symbolic link nor to anything but a file, first cut to `validBytes` when given (through the descriptor, so what is
 * cut is what is appended to: never a file a link put in its place meanwhile).
 */
export function openJournalFile(path: string, flags: 'wx' | 'a', validBytes?: number): JournalFile {
  const fd =
    flags === 'wx'
      ? openSync(path, 'ax', 0o600) // O_APPEND too: every write lands at the end, whoever else writes
      : openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  if (flags === 'a') {
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw Object.assign(new Error(`${path} is not a file`), { code: 'EINVAL' });
      refuseUntrusted(path, stat); // the file appended to is the one checked, whatever its name leads to by now
      if (validBytes !== undefined) ftruncateSync(fd, validBytes);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }
  const background = promisify(fdatasync);
  return {
    append(text) {
      const bytes = Buffer.from(text);
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
    },
    datasync: () => fdatasyncSync(fd),
    datasyncInBackground: () => background(fd),
    close: () => promisify(close)(fd),
  };
}

/**
 * A journal decides what a resume sends again and what it skips as done: one another user could have written (theirs,
 * or one others may write to, as in a shared folder) is refused, never trusted.
 */
export function refuseUntrusted(path: string, stat: { uid: number; mode: number }): void {
  const reason = othersCouldWrite(path, stat);
  if (!reason) return;
  // The user's own, left open to others (a copy made under umask 002): theirs to check and close, then resume.
  // --restart would send every line again.
  if (anotherUsers(path, stat) === undefined)
    throw new UsageError(
      `${reason}: a journal others could have written is not trusted; check it, then \`chmod go-w ${shellWord(path)}\` ` +
        'and --resume (--restart would send every line again)',
    );
  throw new UsageError(
    `${reason}: a journal of another user is not trusted; give --journal a file of your own`,
  );
}
