// The human view of chat tail: one safe line per event, cut to the terminal's width.
import { describe, expect, it } from 'vitest';
import { humanLine } from '../../../src/commands/chat/human-line.js';

const now = new Date('2026-11-22T10:00:00Z');

describe('humanLine', () => {
  it('a message: time, conversation, sender, status, body', () => {
    const line = humanLine(
      {
        kind: 'created',
        source: 'realtime',
        data: {
          id: 9,
          conversation_id: 4,
          sender_type: 'customer',
          sender_id: 12,
          status: 'received',
          body: 'Hi',
          created_at: '2026-11-22T09:59:58+00:00',
        },
      },
      200,
      now,
    );
    expect(line).toBe('09:59:58  #4  customer 12  received  Hi');
  });

  it('marks messages filled from REST, cuts to the width, and never carries control characters', () => {
    const line = humanLine(
      {
        kind: 'created',
        source: 'rest',
        data: { id: 1, conversation_id: 4, body: `\u001b[2Jx\n${'y'.repeat(300)}` },
      },
      60,
      now,
    );
    expect(line).toHaveLength(60);
    expect(line).toContain('(missed)');
    // eslint-disable-next-line no-control-regex -- the point of the test
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('deleted and read events', () => {
    expect(
      humanLine(
        {
          kind: 'deleted',
          source: 'realtime',
          data: { chatLogId: 7, conversationId: 4, deletedByUserName: 'Dana' },
        },
        100,
        now,
      ),
    ).toBe('10:00:00  #4  message 7 deleted by Dana');
    expect(humanLine({ kind: 'read', source: 'realtime', data: { conversation_id: 4 } }, 100, now)).toBe(
      '10:00:00  #4  read',
    );
  });
});
