// Every chat log (message) of every tenant on one id sequence. All creations, deletions and reads go through here,
// so listeners (the realtime server) hear of each one.
import type { ChatLogRecord } from './chat-types.js';
import { offsetTimestamp } from './time.js';
import { highestId } from './ids.js';

export type ChatEvent =
  | { type: 'created'; tenantId: number; log: ChatLogRecord }
  | {
      type: 'deleted';
      tenantId: number;
      chatLogId: number;
      conversationId: number;
      /** Null when the system deleted it. */
      deletedByUserName: string | null;
    }
  | { type: 'read'; tenantId: number; conversation_id: number };

export type ChatEventListener = (event: ChatEvent) => void;

export type NewChatLog = Omit<ChatLogRecord, 'id' | 'created_at' | 'updated_at'>;

export class ChatLogs {
  private readonly listeners = new Set<ChatEventListener>();
  /** Soft-deleted ids with their deletion time: gone from every read. */
  private readonly deleted = new Map<number, string>();
  private nextId: number;

  constructor(private readonly logs: ChatLogRecord[]) {
    this.nextId = highestId(logs) + 1;
  }

  /** Returns the function that stops listening. */
  onEvent(listener: ChatEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Live messages of a conversation in id order, only those after `afterId` when given. */
  ofConversation(conversationId: number, afterId = 0): ChatLogRecord[] {
    return this.logs.filter(
      (log) => log.conversation_id === conversationId && log.id > afterId && !this.deleted.has(log.id),
    );
  }

  get(conversationId: number, id: number): ChatLogRecord | undefined {
    const log = this.logs.find((candidate) => candidate.id === id);
    return log?.conversation_id === conversationId && !this.deleted.has(id) ? log : undefined;
  }

  add(fields: NewChatLog, nowMs: number): ChatLogRecord {
    const at = offsetTimestamp(nowMs);
    const log: ChatLogRecord = { id: this.nextId++, ...fields, created_at: at, updated_at: at };
    this.logs.push(log);
    // A copy: listeners keep the message as it was created, whatever later happens to it (read, for one).
    this.emit({ type: 'created', tenantId: log.tenant_id, log: { ...log } });
    return log;
  }

  /** Soft-deletes a message; false when there is no such live message. */
  remove(conversationId: number, id: number, deletedByUserName: string | null, nowMs: number): boolean {
    const log = this.get(conversationId, id);
    if (log === undefined) return false;
    this.deleted.set(id, offsetTimestamp(nowMs));
    this.emit({
      type: 'deleted',
      tenantId: log.tenant_id,
      chatLogId: id,
      conversationId,
      deletedByUserName,
    });
    return true;
  }

  /** Marks the patient's unread messages read. */
  markRead(tenantId: number, conversationId: number, nowMs: number): void {
    const at = offsetTimestamp(nowMs);
    for (const log of this.ofConversation(conversationId)) {
      if (log.sender_type !== 'customer' || log.read_at !== null) continue;
      log.read_at = at;
      log.status = 'read';
      log.updated_at = at;
    }
    this.emit({ type: 'read', tenantId, conversation_id: conversationId });
  }

  /** A listener's failure must not undo or block the change that triggered it. */
  private emit(event: ChatEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // Ignored on purpose: listeners are observers.
      }
    }
  }
}
