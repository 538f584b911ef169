// What identifies and authenticates a forwarded event: Clinic-Event-Id from the event's identity alone, and a
// Clinic-Signature a receiver verifies with nothing but the secret, the header and the body.
import { createHmac, timingSafeEqual } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TailEvent } from '../../../src/core/realtime/events.js';
import {
  eventId,
  MAX_READ_POINTS,
  ReadPoints,
  signature,
} from '../../../src/core/realtime/forward-signature.js';

/** A receiver's check, as docs/chat-tail.md shows it: recompute the HMAC of "<t>.<body>", compare in constant time. */
function verifies(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const created = (id: number, conversation: number, source: 'realtime' | 'rest', body = 'hi'): TailEvent => ({
  kind: 'created',
  source,
  data: { id, conversation_id: conversation, body },
});

describe('Clinic-Signature', () => {
  it('is t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">, verified with the secret alone', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string(),
        fc.integer({ min: 0, max: 2 ** 32 }),
        (secret, body, t) => {
          const header = signature(secret, t, body);
          expect(header).toMatch(new RegExp(`^t=${t},v1=[0-9a-f]{64}$`));
          expect(verifies(secret, header, body)).toBe(true);
        },
      ),
    );
  });

  it('fails to verify with another secret, another body or another time', () => {
    const header = signature('whsec_right', 1_700_000_000, '{"event":"ChatLogCreated"}');
    expect(verifies('whsec_wrong', header, '{"event":"ChatLogCreated"}')).toBe(false);
    expect(verifies('whsec_right', header, '{"event":"ChatLogDeleted"}')).toBe(false);
    const later = header.replace('t=1700000000', 't=1700000001');
    expect(verifies('whsec_right', later, '{"event":"ChatLogCreated"}')).toBe(false);
  });
});

describe('Clinic-Event-Id', () => {
  it('depends on what the event is, not on how it came (live or REST) nor on its text', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.string(), (id, conversation, body) => {
        const live = eventId(created(id, conversation, 'realtime'), '1');
        expect(eventId(created(id, conversation, 'rest', body), '1')).toBe(live);
        expect(live).toBe(`ChatLogCreated.1.${conversation}.${id}`);
      }),
    );
  });

  it('differs between events: kind, tenant, conversation, message', () => {
    const ids = [
      eventId(created(7, 2, 'realtime'), '1'),
      eventId(created(7, 2, 'realtime'), '2'),
      eventId(created(7, 3, 'realtime'), '1'),
      eventId(created(8, 2, 'realtime'), '1'),
      eventId({ kind: 'deleted', source: 'realtime', data: { chatLogId: 7, conversationId: 2 } }, '1'),
      eventId({ kind: 'read', source: 'realtime', data: { conversation_id: 2 } }, '1', 7),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(4)).toEqual(['ChatLogDeleted.1.2.7', 'ConversationRead.1.2.7']);
  });

  it('a read event is named by the last message delivered before it: reads with none between are one', () => {
    const read: TailEvent = { kind: 'read', source: 'realtime', data: { conversation_id: 4 } };
    expect(eventId(read, '1', 30)).toBe(eventId(read, '1', 30));
    expect(eventId(read, '1', 31)).not.toBe(eventId(read, '1', 30));
    expect(eventId(read, '1')).toBe('ConversationRead.1.4.0');
  });

  it('a hostile payload gives an id fit for a header: no line break, no header injection', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (id, conversation) => {
        const event: TailEvent = {
          kind: 'deleted',
          source: 'realtime',
          data: { chatLogId: id, conversationId: conversation },
        };
        expect(eventId(event, '1')).toMatch(/^ChatLogDeleted\.1\.(\d+|unknown)\.(\d+|unknown)$/);
      }),
    );
  });
});

describe('ReadPoints (what a read event was read up to)', () => {
  it('keeps the highest message forwarded of each conversation', () => {
    const points = new ReadPoints([[12, 345]]);
    points.forwarded(12, 340); // a late live message
    points.forwarded(13, 7);
    expect([points.get(12), points.get(13), points.get(14)]).toEqual([345, 7, undefined]);
  });

  it('stays bounded however many conversations a server makes up, forgetting the least recently forwarded', () => {
    const points = new ReadPoints();
    points.forwarded(1, 10);
    for (let conversation = 2; conversation <= 3 * MAX_READ_POINTS; conversation++) {
      points.forwarded(conversation, 1);
      if (conversation % 1000 === 0) points.forwarded(1, 10 + conversation); // still active
    }
    expect(points.size).toBe(MAX_READ_POINTS);
    expect(points.get(1)).toBe(10 + 3 * MAX_READ_POINTS);
    expect(points.get(2)).toBeUndefined();
    expect(points.get(3 * MAX_READ_POINTS)).toBe(1);
  });
});
