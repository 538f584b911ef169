// The journal of a bulk run: one JSON line per event, appended; "sending" reaches the disk (fdatasync) before the
// request leaves, so after any crash a line is either done (ok/error), never sent, or possibly sent (unknown).
// One write and one fdatasync per batch of "sending" lines, the outcomes answered since the last batch written with
// it: a record costs one fdatasync, and its outcome is durable once the next record's "sending" line is.
import { constants } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { exactJson, parseExact } from '../http/exact-numbers.js';
import { type JournalFile, openJournalFile, refuseUntrusted } from './journal-file.js';
import { systemReason } from '../system-error.js';

export interface JournalHeader {
  journal: 'clinic-bulk';
  version: 1;
  command: string;
  input: string;
  format: string;
  size: number;
  sha256: string;
  records: number;
  created_at: string;
  /** Where the run sends: a resume that would send elsewhere (another server or tenant) is refused. */
  base_url?: string;
  tenant?: string | null;
}

export type Outcome =
  | { state: 'ok'; id: unknown }
  | { state: 'error'; http_status: number | null; code: string | null; message: string; errors?: unknown }
  | { state: 'unknown'; message: string }
  /**
   * Not processed: the connection was refused (the request never left), or the server turned it away for a reason
   * that is not the record's (401, 403, 428, 429: `http_status` and `code` say which). A resume sends it.
   */
  | { state: 'not_sent'; message: string; http_status?: number; code?: string | null };

export type LineState = Outcome | { state: 'sending' };

export interface JournalContents {
  header: JournalHeader;
  /** The last state of each line written so far. */
  lines: Map<number, LineState>;
  /** Bytes up to the last complete entry: a torn tail is cut off before appending again. */
  validBytes: number;
}

/** Reads a journal; a torn last line (a crash while appending) is ignored, other damage refused. */
export async function readJournal(path: string): Promise<JournalContents | undefined> {
  let text: string;
  try {
    // Never through a symbolic link (as the checkpoint of chat tail): the journal is appended to and cut after this.
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      refuseUntrusted(path, await handle.stat());
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw journalFileError(path, 'read', error);
  }
  // What follows the last line break is empty, or an entry torn by a crash: either way not an entry.
  const complete = text.split('\n').slice(0, -1);
  const parsed = complete.map((row, index) => {
    try {
      return parseExact(row) as Record<string, unknown>; // a created record's id past 2^53: exact
    } catch {
      throw new UsageError(
        `${path}:${index + 1}: the journal is damaged; keep it for the record and use --restart`,
      );
    }
  });
  const header = parsed[0] as unknown as JournalHeader | undefined;
  if (header?.journal !== 'clinic-bulk' || header.version !== 1)
    throw new UsageError(`${path} is not a clinic bulk journal`);
  const lines = new Map<number, LineState>();
  parsed.slice(1).forEach((entry, index) => {
    const { line, ...state } = entry as { line: unknown } & LineState;
    // An entry that names no line of the input, or no state a run writes, would make its line count as never sent.
    if (!Number.isSafeInteger(line) || (line as number) < 1 || !isLineState(state))
      throw new UsageError(
        `${path}:${index + 2}: the journal is damaged; keep it for the record and use --restart`,
      );
    lines.set(line as number, state);
  });
  return { header, lines, validBytes: Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)) };
}

/** Whether `state` is one a run writes, with the fields a resume reads of it. */
function isLineState(state: { state?: unknown } & Record<string, unknown>): state is LineState {
  switch (state.state) {
    case 'sending':
      return true;
    case 'ok':
      return 'id' in state;
    case 'error':
      return (
        typeof state.message === 'string' &&
        (state.http_status === null || Number.isSafeInteger(state.http_status))
      );
    case 'unknown':
    case 'not_sent':
      return typeof state.message === 'string';
    default:
      return false;
  }
}

export class Journal {
  /** Outcomes not yet written: they go with the next write (a batch of "sending" lines, or a flush). */
  private pending = '';
  /** Writes so far, and how many of them an fdatasync has covered. */
  private appended = 0;
  private durable = 0;
  /** The fdatasync running in the thread pool, if one is. */
  private syncing?: Promise<void>;
  /** A failed append or fdatasync: nothing after it is trusted to reach the disk, so no later request may leave. */
  private broken?: unknown;

  private constructor(
    private readonly file: JournalFile,
    readonly path: string,
  ) {}

  /** A new journal (an existing one is replaced only when `replace`, i.e. --restart). */
  static async create(
    path: string,
    header: JournalHeader,
    replace: boolean,
    open: typeof openJournalFile = openJournalFile,
  ): Promise<Journal> {
    if (replace) await removeJournal(path);
    let file: JournalFile;
    try {
      file = open(path, 'wx');
    } catch (error) {
      throw new UsageError(`${path}: cannot create the journal: ${systemReason(error, path)}`);
    }
    const journal = new Journal(file, path);
    await journal.durably([header], false);
    return journal;
  }

  /** Appends to an existing journal, first cutting off a torn last entry. */
  static async reopen(
    path: string,
    validBytes: number,
    open: typeof openJournalFile = openJournalFile,
  ): Promise<Journal> {
    try {
      return new Journal(open(path, 'a', validBytes), path);
    } catch (error) {
      throw journalFileError(path, 'append to', error);
    }
  }

  /** Written and on disk (one write, one fdatasync for them all) before the request of any of `lines` is sent. */
  sending(...lines: number[]): Promise<void> {
    return this.sendingBatch(lines, false);
  }

  /**
   * As `sending`. `inBackground` when other requests are in flight: the fdatasync then runs in the thread pool (their
   * answers are read meanwhile), and the batches journaled while it runs share the next one. Otherwise it blocks:
   * nothing else is waiting, and a thread to wake costs more than it saves.
   */
  sendingBatch(lines: readonly number[], inBackground: boolean): Promise<void> {
    const at = new Date().toISOString();
    return this.durably(
      lines.map((line) => ({ line, state: 'sending', at })),
      inBackground,
    );
  }

  /**
   * The outcome, kept until the next write: the next batch of "sending" lines (one write and one fdatasync for them
   * and it), or a `flush` before its result is shown.
   */
  outcome(line: number, outcome: Outcome): void {
    this.pending += `${exactJson({ line, ...outcome })}\n`;
  }

  /** Writes the outcomes kept (not durable yet: the next fdatasync makes them so); a kill -9 from here on keeps them. */
  flush(): void {
    if (this.pending !== '') this.append([]);
  }

  async close(): Promise<void> {
    try {
      this.flush();
      await this.syncing;
      if (this.durable < this.appended && this.broken === undefined) this.file.datasync();
    } catch {
      // the run has already failed on it, or ends now: closing is all that is left
    }
    await this.file.close();
  }

  /** Writes the outcomes kept and `entries` after them, in one write. */
  private append(entries: object[]): void {
    if (this.broken !== undefined) throw this.broken;
    let text = this.pending;
    for (const entry of entries) text += `${JSON.stringify(entry)}\n`;
    this.pending = '';
    try {
      this.file.append(text);
    } catch (error) {
      this.broken = error; // a part of it may be in the file: a torn last entry, cut off by the next resume
      throw error;
    }
    this.appended++;
  }

  /** Appends `entries` and returns once an fdatasync begun after the append has ended. */
  private async durably(entries: object[], inBackground: boolean): Promise<void> {
    this.append(entries);
    const upTo = this.appended;
    while (this.durable < upTo) {
      if (this.broken !== undefined) throw this.broken;
      // One fdatasync at a time: a batch appended while one runs waits for it, then shares the next.
      if (this.syncing) {
        await this.syncing.catch(() => undefined);
        continue;
      }
      const covered = this.appended;
      try {
        if (inBackground) await (this.syncing = this.file.datasyncInBackground());
        else this.file.datasync();
      } catch (error) {
        this.broken ??= error;
        throw error;
      } finally {
        this.syncing = undefined;
      }
      this.durable = Math.max(this.durable, covered);
    }
  }
}

/**
 * --restart's removal of the journal there, unread past its first line (a damaged journal is replaced): only a file
 * whose first line is a bulk journal's header, never through a symbolic link, so that --journal naming any other file
 * (notes, the input itself) loses nothing.
 */
async function removeJournal(path: string): Promise<void> {
  let first: string;
  try {
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      if (!(await handle.stat()).isFile())
        throw new UsageError(`${path} is not a file; --journal needs a file`);
      const head = Buffer.alloc(256);
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      first = head.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw journalFileError(path, 'replace', error);
  }
  if (!/^\{"journal":"clinic-bulk"/.test(first))
    throw new UsageError(`${path} is not a clinic bulk journal; --restart replaces only a journal`);
  try {
    await rm(path);
  } catch (error) {
    throw journalFileError(path, 'replace', error);
  }
}

function journalFileError(path: string, doing: string, error: unknown): UsageError {
  if (error instanceof UsageError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP')
    return new UsageError(`${path} is a symbolic link; refusing to ${doing} a journal through it`);
  return new UsageError(`${path}: cannot ${doing} the journal: ${systemReason(error, path)}`);
}
