// `chat tail --checkpoint FILE`: the last delivered message id of each conversation, kept across restarts so that a
// tail started again fills from there. Written after deliveries, atomically (a 0600 temporary file renamed over the
// old one), one write at a time: deliveries made while a write runs are written together by the next one.
import { fstatSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { othersCouldWrite, readUnlinked, replaceFile } from '../config/private-file.js';
import { UsageError } from '../errors.js';
import { withRunLock } from '../lock.js';
import { makeFolderSync } from '../make-folder.js';

/** Conversations kept in the file, least recently delivered forgotten first (the tail's own memory holds as many). */
export const MAX_CHECKPOINT_CONVERSATIONS = 10_000;
const VERSION = 1;

/** Whose messages the ids are: a checkpoint of another tenant or server means nothing here. */
export interface CheckpointOwner {
  tenant: string;
  base_url: string;
}

export interface CheckpointOptions {
  /** Conversations kept (default MAX_CHECKPOINT_CONVERSATIONS). */
  limit?: number;
  /** Told once a run, the first time a conversation is forgotten to keep the limit (the least recently delivered). */
  forgetting?: (conversationId: number, limit: number) => void;
  /** Replaces the file atomically (default replaceFile); tests count the writes. */
  write?: (path: string, text: string) => Promise<void>;
}

interface CheckpointFile extends CheckpointOwner {
  version: number;
  /** Least recently delivered first. */
  conversations: { id: number; after: number }[];
}

/**
 * Runs `section` with the checkpoint at `path` opened and held: a second tail on the same file is refused (exit 2,
 * naming it) before it connects, for as long as the first one's process lives (core/lock.ts); a killed tail's lock is
 * taken over at once. What was delivered is on disk before this returns.
 */
export async function withCheckpoint<T>(
  path: string,
  owner: CheckpointOwner,
  section: (checkpoint: Checkpoint) => Promise<T>,
  options: Pick<CheckpointOptions, 'forgetting'> = {},
): Promise<T> {
  makeFolderSync(dirname(path));
  const busy = () =>
    new UsageError(`${path} is in use by another chat tail; each tail needs a --checkpoint file of its own`);
  return withRunLock(path, busy, async () => {
    const checkpoint = Checkpoint.open(path, owner, options);
    await checkpoint.save();
    let result: T;
    try {
      result = await section(checkpoint);
    } catch (error) {
      await checkpoint.flush().catch(() => undefined); // the run's own error is the one to tell
      throw error;
    }
    await checkpoint.flush();
    return result;
  });
}

export class Checkpoint {
  /** Conversation → last delivered message id; a Map's order is the delivery order (least recent first). */
  private readonly after: Map<number, number>;
  private writing?: Promise<void>;
  private dirty = false;
  private failure?: Error;
  /** Conversations whose entry is not on disk yet: their first delivery waits for it (see `recorded`). */
  private readonly unwritten = new Set<number>();

  private constructor(
    readonly path: string,
    private readonly owner: CheckpointOwner,
    after: Map<number, number>,
    private readonly limit: number,
    private readonly write: (path: string, text: string) => Promise<void>,
    private forgetting?: (conversationId: number, limit: number) => void,
  ) {
    this.after = after;
  }

  /**
   * The checkpoint at `path` (a new one when there is no file, or an empty one); a usage error when it is not a
   * checkpoint, or another tenant's or server's. Folders missing on the way are made (0700); existing ones are left
   * as they are.
   */
  static open(path: string, owner: CheckpointOwner, options: CheckpointOptions = {}): Checkpoint {
    makeFolderSync(dirname(path));
    const text = readCheckpointText(path);
    const after = new Map<number, number>();
    if (text !== undefined && text.trim() !== '') {
      const file = parseCheckpoint(text, path);
      if (file.tenant !== owner.tenant || file.base_url !== owner.base_url)
        throw new UsageError(
          `${path} is the checkpoint of tenant ${file.tenant} at ${file.base_url}, not of tenant ${owner.tenant} ` +
            `at ${owner.base_url}: give this tail a --checkpoint file of its own`,
        );
      for (const { id, after: last } of file.conversations) after.set(id, last);
    }
    const { limit = MAX_CHECKPOINT_CONVERSATIONS, write = replaceFile, forgetting } = options;
    return new Checkpoint(path, owner, after, limit, write, forgetting);
  }

  /** Where each conversation resumes now: fill after this id (a copy). */
  positions(): Map<number, number> {
    return new Map(this.after);
  }

  /** A failed write (a full disk, a folder made read-only): the tail ends with it rather than go on unrecorded. */
  get error(): Error | undefined {
    return this.failure;
  }

  /**
   * A message delivered (printed, or accepted by the endpoint): its id becomes the conversation's resume point, unless
   * a later one was delivered already (a late live event). Written soon; `flush` waits for it.
   */
  delivered(conversationId: number, messageId: number): void {
    const last = this.after.get(conversationId);
    if (last === undefined) this.unwritten.add(conversationId);
    this.after.delete(conversationId);
    this.after.set(conversationId, last === undefined ? messageId : Math.max(last, messageId));
    this.keepLimit();
    this.schedule();
  }

  /**
   * A message of a conversation the file does not hold yet arrived (not delivered yet, maybe never in this run: an
   * endpoint down, a kill): from now on a restart fills that conversation from just before it.
   */
  seen(conversationId: number, messageId: number): void {
    if (this.after.has(conversationId)) return;
    this.after.set(conversationId, messageId - 1);
    this.unwritten.add(conversationId);
    this.keepLimit();
    this.schedule();
  }

  /**
   * Past the limit, the least recently delivered conversation is forgotten: a restart no longer fills it. Said once
   * a run (a tail of a tenant with that many conversations, or messages in ever new ones, is worth an operator's
   * look: `--conversation` names those that matter).
   */
  private keepLimit(): void {
    if (this.after.size <= this.limit) return;
    const oldest = this.after.keys().next().value as number;
    this.after.delete(oldest);
    this.forgetting?.(oldest, this.limit);
    this.forgetting = undefined;
  }

  /**
   * The conversation resumes from `messageId` now, lower than the id it held (the server's ids went back, or the id it
   * held was never one of the server's: one false id must not silence a conversation for good). Written soon.
   */
  resumeAfter(conversationId: number, messageId: number): void {
    if (!this.after.has(conversationId)) return;
    this.after.delete(conversationId);
    this.after.set(conversationId, messageId);
    this.schedule();
  }

  /** A conversation that can no longer be read (erased, taken away): a restart no longer fills it. */
  forget(conversationId: number): void {
    if (!this.after.delete(conversationId)) return;
    this.unwritten.delete(conversationId);
    this.schedule();
  }

  /**
   * Resolves once the file holds `conversationId`. A message is delivered only after that: a tail killed right after
   * delivering the first message of a new conversation still knows the conversation on restart, and fills what came
   * while it was down (without this wait, a delivery could beat the write, and those messages were lost for good).
   */
  async recorded(conversationId: number): Promise<void> {
    if (this.unwritten.has(conversationId)) await this.flush();
  }

  /** Writes now (the start: the file exists and is writable before anything connects), and waits for it. */
  async save(): Promise<void> {
    this.schedule();
    await this.flush();
  }

  /** Waits until what was delivered so far is on disk; throws the write's error, if any. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.failure) throw this.failure;
  }

  private schedule(): void {
    this.dirty = true;
    this.writing ??= this.writeWhileDirty();
  }

  private async writeWhileDirty(): Promise<void> {
    try {
      while (this.dirty && !this.failure) {
        this.dirty = false;
        const covered = [...this.unwritten];
        await this.write(this.path, this.text());
        for (const id of covered) this.unwritten.delete(id);
      }
    } catch (error) {
      this.failure = new Error(`cannot write the checkpoint ${this.path}: ${(error as Error).message}`);
    } finally {
      this.writing = undefined;
    }
  }

  private text(): string {
    const file: CheckpointFile = {
      version: VERSION,
      tenant: this.owner.tenant,
      base_url: this.owner.base_url,
      conversations: [...this.after].map(([id, after]) => ({ id, after })),
    };
    return `${JSON.stringify(file)}\n`;
  }
}

/**
 * The file's text, or undefined when there is none; never through a symbolic link. Opened without waiting: a FIFO at
 * its place is refused as not a file, not waited on with the lock held and Ctrl-C unheard.
 */
function readCheckpointText(path: string): string | undefined {
  const refusal = {
    link: `${path} is a symbolic link; give the checkpoint file itself`,
    failed: (reason: string) => `cannot read the checkpoint ${path}: ${reason}`,
  };
  return readUnlinked(path, refusal, (fd) => {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UsageError(`${path} is not a file; --checkpoint needs a file`);
    // It decides which messages are skipped as delivered: one another user could have written is not trusted.
    const untrusted = othersCouldWrite(path, stat);
    if (untrusted)
      throw new UsageError(
        `${untrusted}: a checkpoint others could have written is not trusted; give --checkpoint a file of your own`,
      );
    return readFileSync(fd, 'utf8');
  });
}

function parseCheckpoint(text: string, path: string): CheckpointFile {
  const refused = () =>
    new UsageError(`${path} is not a clinic chat checkpoint; give another --checkpoint file`);
  let file: Partial<CheckpointFile>;
  try {
    file = JSON.parse(text) as Partial<CheckpointFile>;
  } catch {
    throw refused();
  }
  const entries = file?.conversations;
  if (
    file?.version !== VERSION ||
    typeof file.tenant !== 'string' ||
    typeof file.base_url !== 'string' ||
    !Array.isArray(entries) ||
    !entries.every((entry) => Number.isSafeInteger(entry?.id) && Number.isSafeInteger(entry?.after))
  )
    throw refused();
  return file as CheckpointFile;
}
