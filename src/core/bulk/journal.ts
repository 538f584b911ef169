// The journal of a bulk run: one JSON line per event, appended; "sending" reaches the disk (fdatasync) before the
// request leaves, so after any crash a line is either done (ok/error), never sent, or possibly sent (unknown).
// The "sending" lines of a batch share one write and one fdatasync; appends are queued, never interleaved.
import { open, readFile, rm, truncate, type FileHandle } from 'node:fs/promises';
import { UsageError } from '../errors.js';

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
}

export type Outcome =
  | { state: 'ok'; id: unknown }
  | { state: 'error'; http_status: number | null; code: string | null; message: string; errors?: unknown }
  | { state: 'unknown'; message: string }
  /** The connection was refused: the request never left, so a resume sends it. */
  | { state: 'not_sent'; message: string };

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
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`${path}: cannot read the journal (${(error as NodeJS.ErrnoException).code})`);
  }
  // What follows the last line break is empty, or an entry torn by a crash: either way not an entry.
  const complete = text.split('\n').slice(0, -1);
  const parsed = complete.map((row, index) => {
    try {
      return JSON.parse(row) as Record<string, unknown>;
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
  for (const entry of parsed.slice(1)) {
    const { line, ...state } = entry as { line: number } & LineState;
    lines.set(line, state as LineState);
  }
  return { header, lines, validBytes: Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)) };
}

export class Journal {
  /** The last append queued: each waits for the one before, so lines never interleave. */
  private tail: Promise<void> = Promise.resolve();

  private constructor(
    private readonly handle: FileHandle,
    readonly path: string,
  ) {}

  /** A new journal (an existing one is replaced only when `replace`, i.e. --restart). */
  static async create(path: string, header: JournalHeader, replace: boolean): Promise<Journal> {
    if (replace) await rm(path, { force: true });
    let handle: FileHandle;
    try {
      handle = await open(path, 'wx', 0o600);
    } catch (error) {
      throw new UsageError(`${path}: cannot create the journal (${(error as NodeJS.ErrnoException).code})`);
    }
    const journal = new Journal(handle, path);
    await journal.append([header], true);
    return journal;
  }

  /** Appends to an existing journal, first cutting off a torn last entry. */
  static async reopen(path: string, validBytes: number): Promise<Journal> {
    await truncate(path, validBytes);
    return new Journal(await open(path, 'a'), path);
  }

  /** Written and on disk (one write, one fdatasync for them all) before the request of any of `lines` is sent. */
  async sending(...lines: number[]): Promise<void> {
    const at = new Date().toISOString();
    await this.append(
      lines.map((line) => ({ line, state: 'sending', at })),
      true,
    );
  }

  /** The outcome; the next `sending` (or close) makes it durable. */
  async outcome(line: number, outcome: Outcome): Promise<void> {
    await this.append([{ line, ...outcome }], false);
  }

  async close(): Promise<void> {
    await this.tail.catch(() => undefined);
    await this.handle.datasync().catch(() => undefined);
    await this.handle.close();
  }

  private append(entries: object[], durable: boolean): Promise<void> {
    const text = entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
    const done = this.tail.then(async () => {
      await this.handle.write(text);
      if (durable) await this.handle.datasync();
    });
    this.tail = done.catch(() => undefined); // a failed append fails its caller; later ones still run
    return done;
  }
}
