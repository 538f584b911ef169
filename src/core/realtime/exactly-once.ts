// Exactly once, in order: the last message id printed per conversation, live events held while a gap is filled
// over REST, and the union printed in id order with each id once. Memory stays bounded over days of running.
import { type ChatLog, isChatLog } from './events.js';

/** Conversations remembered (least recently active forgotten first). */
const MAX_CONVERSATIONS = 10_000;

export type Deliver = (log: ChatLog, source: 'realtime' | 'rest') => Promise<void>;
/** The messages of a conversation after a message id, oldest first, page by page. */
export type FetchAfter = (conversationId: number, afterId: number) => AsyncIterable<unknown>;

export class ExactlyOnce {
  /** Last id printed per conversation; a Map keeps insertion order, so the first key is the least recent. */
  private readonly last = new Map<number, number>();
  private held: ChatLog[] = [];
  private filling = false;
  private again = false;

  constructor(
    private readonly deliver: Deliver,
    /** Which conversations to print (all when undefined). */
    private readonly wanted?: ReadonlySet<number>,
  ) {}

  /** Start at a known message (`--since`): what follows it is filled on the first fill. */
  startAfter(conversationId: number, messageId: number): void {
    this.remember(conversationId, messageId);
  }

  get conversations(): number[] {
    return [...this.last.keys()];
  }

  /** A live ChatLogCreated: held while a fill runs, else printed unless already printed. */
  async live(log: unknown): Promise<void> {
    if (!isChatLog(log) || !this.isWanted(log.conversation_id)) return;
    if (this.filling) {
      this.held.push(log);
      return;
    }
    await this.emit(log, 'realtime');
  }

  /**
   * Fills the gap of every conversation seen or named: REST `after` the last id, page by page; then the live events
   * held meanwhile, in id order per conversation. A fill asked for while one runs makes it go round once more.
   * Returns how many messages came from REST.
   */
  async fill(fetchAfter: FetchAfter): Promise<number> {
    if (this.filling) {
      this.again = true;
      return 0;
    }
    this.filling = true;
    let filled = 0;
    try {
      do {
        this.again = false;
        for (const conversationId of this.conversations) {
          for await (const log of fetchAfter(conversationId, this.last.get(conversationId) ?? 0)) {
            if (isChatLog(log) && log.conversation_id === conversationId && (await this.emit(log, 'rest')))
              filled++;
          }
        }
      } while (this.again);
    } finally {
      const held = this.held.sort((a, b) => a.id - b.id);
      this.held = [];
      this.filling = false;
      for (const log of held) await this.emit(log, 'realtime');
    }
    return filled;
  }

  private isWanted(conversationId: number): boolean {
    return this.wanted === undefined || this.wanted.has(conversationId);
  }

  /** Prints a message unless its id was printed already; true when printed. */
  private async emit(log: ChatLog, source: 'realtime' | 'rest'): Promise<boolean> {
    const seen = this.last.get(log.conversation_id);
    if (seen !== undefined && log.id <= seen) return false;
    this.remember(log.conversation_id, log.id);
    await this.deliver(log, source);
    return true;
  }

  private remember(conversationId: number, id: number): void {
    this.last.delete(conversationId);
    this.last.set(conversationId, id);
    if (this.last.size > MAX_CONVERSATIONS) this.last.delete(this.last.keys().next().value as number);
  }
}
