// The AI assistant: while a conversation has it enabled, each patient message there gets an assistant reply
// 200-500 ms later (delay and text from a seeded stream).
import { postMessage } from '../data/chat-messages.js';
import type { ChatEvent } from '../data/chat-logs.js';
import { ASSISTANT_LINES } from '../data/seed-chat.js';
import type { SandboxStore } from '../data/store.js';
import { createRandom, deriveSeed, pick, randomInt, type Random } from '../random.js';

export const ASSISTANT_DELAY_MS = { min: 200, max: 500 } as const;

export class AssistantReplies {
  private readonly random: Random;
  private readonly pending = new Set<NodeJS.Timeout>();
  private readonly stopListening: () => void;

  constructor(
    private readonly store: SandboxStore,
    seed: number,
    private readonly now: () => number,
  ) {
    this.random = createRandom(deriveSeed(seed, 'assistant'));
    this.stopListening = store.onChatEvent((event) => this.hear(event));
  }

  /** Stops listening and forgets the replies not yet sent. */
  close(): void {
    this.stopListening();
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }

  private hear(event: ChatEvent): void {
    if (event.type !== 'created' || event.log.sender_type !== 'customer') return;
    const conversation = this.store.conversation(event.tenantId, event.log.conversation_id);
    if (conversation?.agent_enabled !== true) return;
    const delayMs = randomInt(this.random, ASSISTANT_DELAY_MS.min, ASSISTANT_DELAY_MS.max);
    const body = pick(this.random, ASSISTANT_LINES);
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      // Switched off in the meantime: the assistant stays quiet.
      if (!conversation.agent_enabled) return;
      const reply = { tenantId: conversation.tenant_id, conversationId: conversation.id, body };
      postMessage(this.store, { ...reply, senderType: 'assistant' }, this.now());
    }, delayMs);
    timer.unref();
    this.pending.add(timer);
  }
}
