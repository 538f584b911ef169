// The human view of chat tail: one safe line per event in aligned columns, cut to the terminal's width; local time with
// its date when not today; history asked with --since and gap fills labelled apart.
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../../src/cli/output/cells.js';
import { HumanTimes } from '../../../src/cli/output/time.js';
import { type ChatLineView, humanLine } from '../../../src/commands/chat/human-line.js';
import type { TailEvent } from '../../../src/core/realtime/events.js';

const now = Date.parse('2026-11-22T10:00:00Z');
const view = (width = 200, utc = false, dated = false): ChatLineView => ({
  width,
  now,
  dated,
  times: new HumanTimes(utc, 'Europe/Berlin'),
});
/** The view of a tail that shows history (--since): room for a date on every line. */
const dated = (width = 200) => view(width, false, true);
const message = (data: Record<string, unknown>, more: Partial<TailEvent> = {}): TailEvent => ({
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
    ...data,
  },
  ...more,
});

describe('humanLine', () => {
  it('a message of today: local HH:MM, conversation, sender, status, body; under the dates when history is shown', () => {
    expect(humanLine(message({}), view())).toBe('10:59  #4     customer 12     received  Hi');
    expect(humanLine(message({}), dated())).toBe('           10:59  #4     customer 12     received  Hi');
  });

  it('a message of another day carries its date; --utc shows UTC', () => {
    const yesterday = message({ created_at: '2026-11-21T20:30:00.000000Z' });
    expect(humanLine(yesterday, dated())).toBe('2026-11-21 21:30  #4     customer 12     received  Hi');
    // A live tail's gap fill from before midnight: its date pushes the line along.
    expect(humanLine(yesterday, view())).toBe('2026-11-21 21:30  #4     customer 12     received  Hi');
    // Past midnight in Berlin, still the day before in UTC.
    const lateUtc = message({ created_at: '2026-11-21T23:30:00.000000Z' });
    expect(humanLine(lateUtc, view())).toBe('00:30  #4     customer 12     received  Hi');
    expect(humanLine(lateUtc, view(200, true))).toBe('2026-11-21 23:30  #4     customer 12     received  Hi');
  });

  it('columns line up whatever the values; a sender longer than its column is cut', () => {
    expect(humanLine(message({ sender_type: 'assistant', sender_id: 1000 }), view())).toBe(
      '10:59  #4     assistant 1000  received  Hi',
    );
    expect(humanLine(message({ sender_type: 'assistant', sender_id: 1000000 }), view())).toBe(
      '10:59  #4     assistant 100…  received  Hi',
    );
    const lines = [
      humanLine(
        message({ conversation_id: 1234, sender_type: 'assistant', sender_id: null, status: 'sent' }),
        dated(),
      ),
      humanLine(
        message({ created_at: '2026-01-02T08:00:00Z', status: 'queued' }, { source: 'rest' }),
        dated(),
      ),
      humanLine(message({ sender_type: 'assistant', sender_id: 123456789 }), dated()),
      humanLine(message({}), dated()),
    ];
    for (const at of [
      (line: string) => line.indexOf('#'),
      (line: string) => line.search(/(sent|queued|received) /),
    ])
      expect(new Set(lines.map(at)).size).toBe(1);
    expect(lines.map((line) => line.search(/\(missed\) Hi|Hi$/))).toEqual([51, 51, 51, 51]);
  });

  it('history asked with --since and gap fills are labelled apart; live messages are not', () => {
    expect(humanLine(message({}, { source: 'rest', history: true }), view())).toContain(
      'received  (history) Hi',
    );
    expect(humanLine(message({}, { source: 'rest' }), view())).toContain('received  (missed) Hi');
    expect(humanLine(message({}), view())).not.toMatch(/\((history|missed)\)/);
  });

  it('cuts to the width and never carries control characters', () => {
    const line = humanLine(message({ body: `\u001b[2Jx\n${'y'.repeat(300)}` }, { source: 'rest' }), view(60));
    expect(line).toHaveLength(60);
    expect(line).toContain('(missed)');
    // eslint-disable-next-line no-control-regex -- the point of the test
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('on a narrow terminal the body keeps room: the status goes first, then the sender', () => {
    const event = message(
      { body: 'Can I move my appointment to Friday?' },
      { source: 'rest', history: true },
    );
    // The body's room counts its label's: a dated view at 80 columns leaves out the status, at 60 the sender too.
    expect(humanLine(event, dated(120))).toBe(
      '           10:59  #4     customer 12     received  (history) Can I move my appointment to Friday?',
    );
    expect(humanLine(event, dated(80))).toBe(
      '           10:59  #4     customer 12     (history) Can I move my appointment to…',
    );
    expect(humanLine(event, dated(60))).toBe('           10:59  #4     (history) Can I move my appointmen…');
    expect(humanLine(event, dated(48))).toBe('           10:59  #4     (history) Can I move m…');
    // A live tail's time is five cells: at 80 columns every column stays, at 60 the sender does.
    expect(humanLine(event, view(80))).toBe(
      '10:59  #4     customer 12     received  (history) Can I move my appointment to …',
    );
    expect(humanLine(event, view(60))).toBe('10:59  #4     customer 12     (history) Can I move my appoi…');
    expect(humanLine(event, view(48))).toBe('10:59  #4     (history) Can I move my appointme…');
    // The same width, the same columns: lines stay aligned.
    const other = humanLine(message({ sender_type: 'user', sender_id: 2, body: 'Yes' }), view(60));
    expect(other).toBe('10:59  #4     user 2          Yes');
  });

  it('wide characters count as the two cells they take: a line never outgrows the terminal', () => {
    const body = '予約を金曜日に変更できますか🙂'.repeat(4);
    for (const width of [40, 60, 80]) {
      const line = humanLine(message({ body }), view(width));
      expect(displayWidth(line), line).toBeLessThanOrEqual(width);
      expect(line.endsWith('…'), line).toBe(true);
    }
    const japanese = message({ sender_type: '患者', sender_id: 3, body: 'はい' });
    const plainLine = message({ sender_type: 'user', sender_id: 3, body: 'はい' });
    const at = (line: string) => displayWidth(line.slice(0, line.indexOf('はい')));
    expect(at(humanLine(japanese, view()))).toBe(at(humanLine(plainLine, view())));
  });

  it('deleted and read events, at the time they arrive', () => {
    const deleted: TailEvent = {
      kind: 'deleted',
      source: 'realtime',
      data: { chatLogId: 7, conversationId: 4, deletedByUserName: 'Dana' },
    };
    expect(humanLine(deleted, view())).toBe('11:00  #4     message 7 deleted by Dana');
    const read: TailEvent = { kind: 'read', source: 'realtime', data: { conversation_id: 4 } };
    expect(humanLine(read, view())).toBe('11:00  #4     read');
  });
});
