// The human view of `chat tail`: one terminal-safe line per event in aligned columns (time, conversation, sender,
// status, body), cut to the terminal's width in cells (a wide character takes two). On a narrow terminal the status,
// then the sender, make way for the body, the same for every line of that width, so the columns stay aligned. The
// time is local `HH:MM`, with its date when it is not today: a live tail's column holds `HH:MM` alone (a gap fill
// from before midnight pushes its line along), one that shows history (--since) has room for the date on every line.
// History asked for with --since and gap fills are labelled.
// Any payload prints: every field may be null, an object or hostile.
import { ownField } from '../../cli/output/fields.js';
import type { LineView } from '../../cli/output/render.js';
import { sanitize } from '../../cli/output/sanitize.js';
import { clipCells, displayWidth, padCells } from '../../cli/output/cells.js';
import { textOf } from '../../cli/output/text.js';
import { parseDateTime } from '../../cli/output/time.js';
import type { TailEvent } from '../../core/realtime/events.js';

/** Widths of the aligned columns; a longer time or conversation pushes the rest along, a longer sender is cut. */
const DATED_TIME = 'YYYY-MM-DD HH:MM'.length;
const TIME = 'HH:MM'.length;
const CONVERSATION = 5;
/** `assistant 1000`, `customer 12345`. */
const SENDER = 14;
const STATUS = 8;
const GAP = '  ';
/**
 * The message keeps at least this many cells while the status can make way, and this many while the sender can,
 * besides the room of its longest label (LABEL): every line of a width shows the same columns, labelled or not.
 */
const BODY_BEFORE_STATUS = 30;
const BODY_BEFORE_SENDER = 20;
const HISTORY = '(history) ';
const MISSED = '(missed) ';
const LABEL = Math.max(HISTORY.length, MISSED.length);

export interface ChatLineView extends LineView {
  /** Now, to leave out the date of today's messages. */
  now: number;
  /** The tail shows history (--since): every time has room for a date, so that older lines and live ones align. */
  dated?: boolean;
}

const timeWidth = (view: ChatLineView) => (view.dated ? DATED_TIME : TIME);

/** The event's time (its own when it has one, else now), with its date only when that is not today. */
function timeText(event: TailEvent, view: ChatLineView): string {
  const own = ownField(event.data, 'created_at');
  const ms = (typeof own === 'string' ? parseDateTime(own) : undefined) ?? view.now;
  view.times.shown(ms);
  const today = view.times.day(ms) === view.times.day(view.now);
  return (today ? view.times.clock(ms) : view.times.at(ms)).padStart(timeWidth(view));
}

/** Which of the sender and status columns a line of this width shows: those that leave the body its room. */
function shownColumns(view: ChatLineView): { sender: boolean; status: boolean } {
  const { width } = view;
  const fixed = timeWidth(view) + GAP.length + CONVERSATION + GAP.length;
  const withSender = fixed + SENDER + GAP.length;
  if (width - withSender - STATUS - GAP.length >= BODY_BEFORE_STATUS + LABEL)
    return { sender: true, status: true };
  return { sender: width - withSender >= BODY_BEFORE_SENDER + LABEL, status: false };
}

/** One human line: time, conversation, sender, status, body, cut to the terminal's width. */
export function humanLine(event: TailEvent, view: ChatLineView): string {
  const text = (key: string) => sanitize(textOf(ownField(event.data, key)));
  const conversation = text('conversation_id') || text('conversationId');
  const columns = [timeText(event, view), padCells(`#${conversation}`, CONVERSATION)];
  if (event.kind === 'created') {
    const shown = shownColumns(view);
    const sender = [text('sender_type'), text('sender_id')].filter((part) => part !== '').join(' ');
    const label = event.history ? HISTORY : event.source === 'rest' ? MISSED : '';
    const media = text('media_type') ? `[${text('media_type')}] ` : '';
    if (shown.sender) columns.push(padCells(clipCells(sender, SENDER), SENDER));
    if (shown.status) columns.push(padCells(text('status'), STATUS));
    columns.push(`${label}${media}${text('body')}`);
  } else if (event.kind === 'deleted') {
    const by = text('deletedByUserName') ? ` by ${text('deletedByUserName')}` : '';
    columns.push(`message ${text('chatLogId')} deleted${by}`);
  } else {
    columns.push('read');
  }
  const line = columns.join(GAP);
  return displayWidth(line) <= view.width ? line : clipCells(line, view.width);
}
