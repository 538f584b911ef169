// The one filter for server text shown to a human: no control characters (C0, C1, DEL) or bidi overrides reach the
// terminal, and line breaks fold into spaces so a value cannot forge extra lines. JSON output never passes here.
// A value that is not text (a server's object where a string was expected) is made text first, never called.
import { textOf } from './text.js';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAKS = /\s*[\n\r\u2028\u2029]+\s*/g;
const TABS = /\t/g;

/**
 * What JSON.stringify leaves as it is and a terminal would act on: DEL, C1 controls (U+009B starts an escape
 * sequence), bidi controls, line and paragraph separators.
 */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** JSON text with those written as `\u` escapes: the same JSON to any reader, nothing a terminal acts on. */
export const jsonForTerminal = (text: string): string =>
  text.replace(JSON_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Text of several lines (a body, our own multi-line message), each line safe; the line breaks stay, the line and
 * paragraph separators (U+2028, U+2029) among them, as line feeds.
 */
export function sanitizeLines(text: string): string {
  return textOf(text)
    .split(/\n|\u2028|\u2029/)
    .map((line) => line.replace(TABS, '  ').replace(CONTROLS, '?'))
    .join('\n');
}

/** One line of text, safe for a terminal. */
export function sanitize(text: string): string {
  return textOf(text).replace(LINE_BREAKS, ' ').replace(TABS, ' ').replace(CONTROLS, '?');
}
