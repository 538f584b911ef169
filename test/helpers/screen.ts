// A terminal screen replayed from what a program wrote to it: enough of a VT100 (carriage return, line feed, the
// cursor moves and line erases that spinners and countdowns use) to read what a person finally sees, and to catch a
// line that ran past the last column.
import { displayWidth } from '../../src/cli/output/cells.js';

export interface Screen {
  /** Each row as shown, trailing blanks dropped. */
  rows: string[];
  /** The cursor at the end. */
  row: number;
  column: number;
  /** The most cells any row held at any time. */
  widest: number;
  /** Text ran past the last column and went on the next row. */
  wrapped: boolean;
}

// eslint-disable-next-line no-control-regex -- escape sequences are what is read here
const SEQUENCE = /^\x1b(?:\[([0-?]*)[ -/]*([@-~])|\][^\x07]*\x07|[()][A-Z0-9]|[=>78])/;

/** Replays `output` on a screen `columns` wide; `\n` also returns the carriage, as a pty's `onlcr` makes it. */
export function replay(output: string, columns: number): Screen {
  const rows: string[][] = [[]];
  let row = 0;
  let column = 0;
  let widest = 0;
  let wrapped = false;
  const line = () => (rows[row] ??= []);
  for (let at = 0; at < output.length;) {
    const char = output[at]!;
    if (char === '\x1b') {
      const match = SEQUENCE.exec(output.slice(at, at + 64));
      if (!match) {
        at++;
        continue;
      }
      at += match[0].length;
      const [, params = '', final] = match;
      const n = Number(params.split(';')[0] || '0');
      if (final === 'K') {
        const cells = line();
        if (n === 0) cells.length = Math.min(cells.length, column);
        else if (n === 1) for (let i = 0; i <= column && i < cells.length; i++) cells[i] = ' ';
        else cells.length = 0;
      } else if (final === 'G') column = Math.max(0, (n || 1) - 1);
      else if (final === 'A') row = Math.max(0, row - (n || 1));
      else if (final === 'B') row += n || 1;
      else if (final === 'C') column = Math.min(columns - 1, column + (n || 1));
      else if (final === 'D') column = Math.max(0, column - (n || 1));
      continue;
    }
    const code = output.codePointAt(at)!;
    at += code > 0xffff ? 2 : 1;
    if (char === '\r') column = 0;
    else if (char === '\n') {
      row++;
      column = 0;
    } else if (char === '\b') column = Math.max(0, column - 1);
    else if (code >= 0x20) {
      const text = String.fromCodePoint(code);
      const cells = displayWidth(text);
      if (column + cells > columns) {
        wrapped = true;
        row++;
        column = 0;
      }
      const current = line();
      while (current.length < column) current.push(' ');
      current[column] = text;
      for (let i = 1; i < cells; i++) current[column + i] = '';
      column += cells;
      widest = Math.max(widest, column);
    }
  }
  for (let i = 0; i <= row; i++) rows[i] ??= [];
  return { rows: rows.map((cells) => (cells ?? []).join('').trimEnd()), row, column, widest, wrapped };
}
