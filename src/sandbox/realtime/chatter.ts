// Generated patient traffic (--chatter N): N messages per second, spread over the seeded conversations of tenants 1
// and 2 by a seeded random stream, so the sequence of conversations and texts replays for the same --seed. Now and
// then the clinic side acts too, so that `chat tail --events created,deleted,read` shows all three events: a staff
// member reads the conversation just written to, or deletes one of the chatter's earlier messages.
import { postMessage, tenantAdminId } from '../data/chat-messages.js';
import { PATIENT_LINES } from '../data/seed-chat.js';
import type { SandboxStore } from '../data/store.js';
import { createRandom, deriveSeed, pick, type Random } from '../random.js';

/** Tenant 3's setup is incomplete (REST answers 428) and tenant 4 is closed: chatter there would be unreadable. */
export const CHATTER_TENANT_IDS: readonly number[] = [1, 2];
/** After each generated message, the chance that its conversation is marked read (ConversationRead). */
export const CHATTER_READ_CHANCE = 0.2;
/** After each generated message, the chance that one of the chatter's earlier messages is deleted (ChatLogDeleted). */
export const CHATTER_DELETE_CHANCE = 0.1;
/** Fast rates send several messages per tick rather than ticking faster than this. */
const MIN_TICK_MS = 20;
/** Above this many messages behind (a stalled event loop), the backlog is dropped, not sent in a burst. */
const MAX_BACKLOG = 100;
/** The newest of the chatter's own messages that may be deleted; never a message it did not write. */
const DELETABLE_KEPT = 50;

interface OwnMessage {
  tenantId: number;
  conversationId: number;
  id: number;
}

export class Chatter {
  private readonly random: Random;
  /** Its own stream, so reads and deletions never shift the replayed conversations and texts. */
  private readonly clinicRandom: Random;
  private readonly deletable: OwnMessage[] = [];
  private timer: NodeJS.Timeout | undefined;
  private perSecond = 0;
  private startedAtMs = 0;
  private sent = 0;

  constructor(
    private readonly store: SandboxStore,
    seed: number,
    private readonly now: () => number,
  ) {
    this.random = createRandom(deriveSeed(seed, 'chatter'));
    this.clinicRandom = createRandom(deriveSeed(seed, 'chatter-clinic'));
  }

  /** Messages per second (fractions allowed, 0 = off); the count restarts from now. */
  setRate(perSecond: number): void {
    if (!Number.isFinite(perSecond) || perSecond < 0) {
      throw new Error(`Chatter must be a number of messages per second >= 0, got ${perSecond}.`);
    }
    this.stop();
    this.perSecond = perSecond;
    if (perSecond === 0) return;
    this.startedAtMs = this.now();
    this.sent = 0;
    this.timer = setInterval(() => this.tick(), Math.max(MIN_TICK_MS, 1000 / perSecond));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Sends what is due by now, so the average rate holds whatever the timer's drift. */
  private tick(): void {
    const due = Math.floor(((this.now() - this.startedAtMs) * this.perSecond) / 1000);
    if (due - this.sent > MAX_BACKLOG) this.sent = due - 1;
    for (; this.sent < due; this.sent++) this.sendOne();
  }

  private sendOne(): void {
    const conversations = this.store.conversations.filter((c) => CHATTER_TENANT_IDS.includes(c.tenant_id));
    if (conversations.length === 0) return;
    const conversation = pick(this.random, conversations);
    const message = postMessage(
      this.store,
      {
        tenantId: conversation.tenant_id,
        conversationId: conversation.id,
        body: pick(this.random, PATIENT_LINES),
      },
      this.now(),
    );
    // Both draws every time, so the sequence of reads and deletions replays too.
    const reads = this.clinicRandom() < CHATTER_READ_CHANCE;
    const deletes = this.clinicRandom() < CHATTER_DELETE_CHANCE;
    if (reads) this.store.chat.markRead(conversation.tenant_id, conversation.id, this.now());
    if (deletes) this.deleteOne();
    this.deletable.push({
      tenantId: message.tenant_id,
      conversationId: message.conversation_id,
      id: message.id,
    });
    if (this.deletable.length > DELETABLE_KEPT) this.deletable.shift();
  }

  /** Deletes one of its earlier messages still there (a test hook may have deleted some), in a staff member's name. */
  private deleteOne(): void {
    while (this.deletable.length > 0) {
      const index = Math.floor(this.clinicRandom() * this.deletable.length);
      const [target] = this.deletable.splice(index, 1);
      if (target === undefined) return;
      const deletedBy = this.adminNameOf(target.tenantId);
      if (this.store.chat.remove(target.conversationId, target.id, deletedBy, this.now())) return;
    }
  }

  private adminNameOf(tenantId: number): string | null {
    const admin = tenantAdminId(this.store, tenantId);
    return (admin !== null && this.store.user(admin)?.name) || null;
  }
}
