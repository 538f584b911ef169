// The journal's file, by its descriptor: appends are synchronous write(2)s (a few microseconds into the page cache,
// never interleaved, and no thread to wake), and fdatasync runs either right here, blocking, when the run has nothing
// else to do meanwhile (one record at a time: as the hand-written floor does), or in libuv's thread pool while
// requests are in flight (their answers are read while the disk works). Tests count the calls through this interface.
import { close, fdatasync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';

export interface JournalFile {
  /** Appends `text` whole (write(2) may take less than all of it: the rest follows). */
  append(text: string): void;
  /** fdatasync(2) here and now; returns when everything appended is on disk. */
  datasync(): void;
  /** fdatasync(2) in the thread pool, so the event loop goes on meanwhile. */
  datasyncInBackground(): Promise<void>;
  close(): Promise<void>;
}

/** Opens `path` with open(2)'s `flags` ('wx' for a new journal, 'a' to append to one). */
export function openJournalFile(path: string, flags: 'wx' | 'a'): JournalFile {
  const fd = openSync(path, flags, 0o600);
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
