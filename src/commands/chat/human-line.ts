// The human view of `chat tail`: one terminal-safe line per event (time, conversation, sender, status, body), cut to
// the terminal's width. Any payload prints: every field may be null, a number, an object or hostile text.
import { ownField } from '../../cli/output/fields.js';
import { sanitize } from '../../cli/output/sanitize.js';
import { clip, textOf } from '../../cli/output/text.js';
import type { TailEvent } from '../../core/realtime/events.js';

/** One human line: time, conversation, sender, status, body, cut to the terminal's width. */
export function humanLine(event: TailEvent, width: number, now: Date): string {
  const text = (key: string) => textOf(ownField(event.data, key));
  const clock = now.toISOString().slice(11, 19);
  let line: string;
  if (event.kind === 'created') {
    const time = text('created_at').slice(11, 19) || clock;
    const sender = [text('sender_type'), text('sender_id')].filter((part) => part !== '').join(' ');
    const fill = event.source === 'rest' ? ' (missed)' : '';
    const media = text('media_type') ? `[${text('media_type')}] ` : '';
    line = `${time}  #${text('conversation_id')}  ${sender}  ${text('status')}${fill}  ${media}${text('body')}`;
  } else if (event.kind === 'deleted') {
    const by = text('deletedByUserName') ? ` by ${text('deletedByUserName')}` : '';
    line = `${clock}  #${text('conversationId')}  message ${text('chatLogId')} deleted${by}`;
  } else {
    line = `${clock}  #${text('conversation_id')}  read`;
  }
  return clip(sanitize(line), width);
}
