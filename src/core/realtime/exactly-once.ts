// Exactly once: each chat message printed once whatever order it comes in (live late, live repeated, a REST fill in
// any order), with memory bounded over days of running: per conversation a floor and a window of printed ids above it.
import { type ChatLog, isChatLog } from './events.js';

export type Deliver = (log: ChatLog, source: 'realtime' | 'rest') => Promise<void>;
/** The messages of a conversation after a message id, page by page, in whatever order the server lists them. */
export type FetchAfter = (conversationId: number, afterId: number) => AsyncIterable<unknown>;

export interface ExactlyOnceLimits {
  /** Conversations remembered (least recently active forgotten first). */
  conversations: number;
  /** Printed ids remembered per conversation above its floor; a message later than that counts as printed. */
  window: number;
  /** Messages of one conversation's fill sorted together; a larger fill is printed in sorted batches. */
  fillBatch: number;
  /** Live messages held while a fill runs; past it they are let go and fetched again by the fill. */
  held: number;
}

export const DEFAULT_LIMITS: ExactlyOnceLimits = {
  conversations: 10_000,
  window: 512,
  fillBatch: 5_000,
  held: 1_000,
};

interface Conversation {
  /** Ids at or below it count as printed. */
  floor: number;
  /** Printed ids above the floor, ascending. */
  printed: number[];
  /** Every message at or below it was handled (printed, or older than the tail): where a REST fill starts. */
  settled?: number;
  /** The lowest id let go unprinted (the output was not being read): the next fill starts below it. */
  missed?: number;
  /** A REST fill of this conversation is wanted. */
  due: boolean;
  /** Where the tail started it (`startAfter`: a checkpoint, --since): a new message at or below it is the server's ids gone back. */
  resumedAfter?: number;
  /** How many times it was started again lower (wentBack): a fill that began before does not raise `settled`. */
  restarts?: number;
}

export interface ExactlyOnceOptions {
  /** Which conversations to print (all when undefined). */
  wanted?: ReadonlySet<number>;
  /** A conversation needs a fill: messages were let go, or its window is full of ids no fill has settled yet. */
  fillDue?: () => void;
  /**
   * Whether a fill's failure means the conversation can no longer be read (gone, or no longer the user's): it is then
   * forgotten and `forgotten` told, and the fill goes on with the others. Any other failure ends the fill.
   */
  unreadable?: (error: unknown, conversationId: number) => boolean;
  forgotten?: (conversationId: number, error: unknown) => void;
  /**
   * A new message came at or below where a conversation was started (startAfter): the server's ids went back (a
   * database restored) or the start was never one of its messages (a checkpoint a server lied to). The conversation
   * goes on from just before that message, which is printed; what came before it while the tail was away may be lost.
   */
  wentBack?: (conversationId: number, messageId: number, resumedAfter: number) => void;
  limits?: Partial<ExactlyOnceLimits>;
}

export class ExactlyOnce {
  /** A Map keeps insertion order: the first key is the least recently active conversation. */
  private readonly state = new Map<number, Conversation>();
  private held: ChatLog[] = [];
  private filling = false;
  private readonly limits: ExactlyOnceLimits;
  private readonly wanted?: ReadonlySet<number>;
  private readonly fillDue?: () => void;
  private readonly unreadable?: (error: unknown, conversationId: number) => boolean;
  private readonly forgotten?: (conversationId: number, error: unknown) => void;
  private readonly wentBack?: (conversationId: number, messageId: number, resumedAfter: number) => void;

  constructor(
    private readonly deliver: Deliver,
    options: ExactlyOnceOptions | ReadonlySet<number> = {},
  ) {
    const opts: ExactlyOnceOptions =
      options instanceof Set ? { wanted: options } : (options as ExactlyOnceOptions);
    this.wanted = opts.wanted;
    this.fillDue = opts.fillDue;
    this.unreadable = opts.unreadable;
    this.forgotten = opts.forgotten;
    this.wentBack = opts.wentBack;
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
  }

  /** Start at a known message (`--since`): what follows it is filled on the first fill. */
  startAfter(conversationId: number, messageId: number): void {
    const conversation = this.touch(conversationId);
    conversation.floor = Math.max(conversation.floor, messageId);
    conversation.settled = messageId;
    conversation.resumedAfter = messageId;
    conversation.due = true;
  }

  get conversations(): number[] {
    return [...this.state.keys()];
  }

  /** Printed ids held in memory, all conversations together (for tests of the bound). */
  get remembered(): number {
    let count = this.held.length;
    for (const conversation of this.state.values()) count += conversation.printed.length;
    return count;
  }

  /** Whether a conversation waits for a fill. */
  get anyDue(): boolean {
    for (const conversation of this.state.values()) if (conversation.due) return true;
    return false;
  }

  /** Every conversation seen or named is to be filled on the next fill. */
  markAllDue(): void {
    for (const conversation of this.state.values()) conversation.due = true;
  }

  /** A live ChatLogCreated: held while a fill runs (let go past the limit), else printed unless already printed. */
  async live(log: unknown): Promise<void> {
    if (!isChatLog(log) || !this.isWanted(log.conversation_id)) return;
    const started = this.state.get(log.conversation_id);
    if (started?.resumedAfter !== undefined && log.id <= started.resumedAfter)
      this.startAgainAt(started, log);
    if (this.filling) {
      if (this.held.length < this.limits.held) this.held.push(log);
      else this.letGo(log);
      return;
    }
    await this.emit(log, 'realtime');
  }

  /**
   * A live message dropped from memory unprinted (the output was not being read): the next fill of its conversation
   * starts below it, so it is printed then, from REST, once.
   */
  letGo(log: unknown): void {
    if (!isChatLog(log) || !this.isWanted(log.conversation_id)) return;
    const conversation = this.touch(log.conversation_id);
    if (this.isPrinted(conversation, log.id)) return;
    conversation.missed = Math.min(conversation.missed ?? log.id, log.id);
    this.markDue(conversation);
  }

  /**
   * Fills the gap of every conversation seen or named (`due`: only those that need it): REST `after` the point up to
   * which all is handled, page by page, sorted by id; then the live events held meanwhile, in id order. A fill asked
   * for while one runs makes it go round once more. Returns how many messages came from REST.
   */
  async fill(fetchAfter: FetchAfter, which: 'all' | 'due' = 'all'): Promise<number> {
    if (which === 'all') this.markAllDue();
    if (this.filling) return 0;
    this.filling = true;
    let filled = 0;
    try {
      for (let id = this.nextDue(); id !== undefined; id = this.nextDue()) {
        try {
          filled += await this.fillOne(id, fetchAfter);
        } catch (error) {
          if (!this.unreadable?.(error, id)) throw error;
          this.state.delete(id);
          this.forgotten?.(id, error);
        }
      }
    } finally {
      const held = this.held.sort((a, b) => a.id - b.id);
      this.held = [];
      this.filling = false;
      for (const log of held) await this.emit(log, 'realtime');
    }
    return filled;
  }

  /** A conversation's start was above the server's new message `log`: it goes on from just before it (wentBack). */
  private startAgainAt(conversation: Conversation, log: ChatLog): void {
    const resumedAfter = conversation.resumedAfter as number;
    conversation.resumedAfter = undefined;
    conversation.floor = Math.min(conversation.floor, log.id - 1);
    conversation.settled = log.id - 1;
    conversation.restarts = (conversation.restarts ?? 0) + 1;
    this.wentBack?.(log.conversation_id, log.id, resumedAfter);
  }

  private nextDue(): number | undefined {
    for (const [id, conversation] of this.state) if (conversation.due) return id;
    return undefined;
  }

  private async fillOne(conversationId: number, fetchAfter: FetchAfter): Promise<number> {
    const conversation = this.state.get(conversationId) as Conversation;
    const restarts = conversation.restarts;
    conversation.due = false;
    const missed = conversation.missed;
    conversation.missed = undefined; // what is let go from now on needs another round
    // The lowest point nothing above can have been missed from: below any message let go, never the newest printed.
    const after = Math.min(conversation.settled ?? Infinity, missed === undefined ? Infinity : missed - 1);
    if (after === Infinity) return 0;
    let filled = 0;
    let newest = after;
    const batch = new Map<number, ChatLog>();
    const flush = async () => {
      const sorted = [...batch.values()].sort((a, b) => a.id - b.id);
      batch.clear();
      for (const log of sorted) if (await this.emit(log, 'rest')) filled++;
    };
    try {
      for await (const log of fetchAfter(conversationId, after)) {
        // Only what was asked for: a server ignoring `after` must not print the whole history.
        if (!isChatLog(log) || log.conversation_id !== conversationId || log.id <= after) continue;
        newest = Math.max(newest, log.id);
        batch.set(log.id, log);
        if (batch.size >= this.limits.fillBatch) await flush();
      }
      await flush();
    } catch (error) {
      const current = this.state.get(conversationId);
      if (current) {
        current.due = true;
        if (missed !== undefined) current.missed = Math.min(current.missed ?? missed, missed);
      }
      throw error;
    }
    const current = this.state.get(conversationId);
    if (current) {
      // Started again lower meanwhile (startAgainAt): where this fill began no longer holds.
      if (current.restarts === restarts) current.settled = Math.max(current.settled ?? newest, newest);
      this.trim(current);
    }
    return filled;
  }

  private isWanted(conversationId: number): boolean {
    return this.wanted === undefined || this.wanted.has(conversationId);
  }

  private isPrinted(conversation: Conversation, id: number): boolean {
    return id <= conversation.floor || conversation.printed[insertionPoint(conversation.printed, id)] === id;
  }

  /** Prints a message unless its id was printed already; true when printed. */
  private async emit(log: ChatLog, source: 'realtime' | 'rest'): Promise<boolean> {
    const conversation = this.touch(log.conversation_id);
    if (this.isPrinted(conversation, log.id)) return false;
    conversation.printed.splice(insertionPoint(conversation.printed, log.id), 0, log.id);
    // The first message seen of a conversation: what came before it is history, not a gap.
    conversation.settled ??= log.id;
    // Trimmed while no fill runs: a fill in progress may still bring lower ids that must not fall under the floor.
    if (!this.filling) this.trim(conversation);
    await this.deliver(log, source);
    return true;
  }

  /**
   * Raises the floor past the oldest printed ids, only where a fill has settled them and none was let go below. One
   * splice, however many go: a fill of a long conversation leaves as many ids as it printed, and shifting them off
   * one at a time would take time quadratic in their number (minutes for a million).
   */
  private trim(conversation: Conversation): void {
    const { printed } = conversation;
    let drop = 0;
    let due = false;
    while (printed.length - drop > this.limits.window) {
      const oldest = printed[drop] as number;
      const settled = conversation.settled !== undefined && oldest <= conversation.settled;
      if (!settled || (conversation.missed !== undefined && oldest >= conversation.missed)) {
        due = true;
        break;
      }
      drop++;
    }
    if (drop > 0) {
      conversation.floor = printed[drop - 1] as number;
      printed.splice(0, drop);
    }
    if (due) this.markDue(conversation);
  }

  private markDue(conversation: Conversation): void {
    if (conversation.due) return;
    conversation.due = true;
    this.fillDue?.();
  }

  /** The conversation's state, made the most recently active. */
  private touch(conversationId: number): Conversation {
    let conversation = this.state.get(conversationId);
    if (conversation) this.state.delete(conversationId);
    else conversation = { floor: -Infinity, printed: [], due: false };
    this.state.set(conversationId, conversation);
    if (this.state.size > this.limits.conversations)
      this.state.delete(this.state.keys().next().value as number);
    return conversation;
  }
}

/** Where `id` is or would go in an ascending list. */
function insertionPoint(list: readonly number[], id: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] as number) < id) low = middle + 1;
    else high = middle;
  }
  return low;
}
