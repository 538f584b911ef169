// A table's frame, drawn around cells already fitted to their columns (table.ts, record-table.ts). The widths that
// fitted the cells pad and cut them too, all measured one way (cells.ts), so every line of a table is as wide as its
// frame whatever the script: a library that counts a Hebrew vowel point or a Devanagari virama as a cell of its own
// pads those rows short, and their borders land off.
import { clipCells, displayWidth } from './cells.js';

export interface Frame {
  head: readonly string[];
  /** Each row's cells; a cell of several lines has them apart by `\n`. */
  rows: readonly (readonly string[])[];
  /** Each column's width in cells, without the space either side. */
  widths: readonly number[];
  colour: boolean;
  /** Cells shown in the highlight colour (a note). */
  highlighted?: (row: number, column: number) => boolean;
}

type Paint = readonly [on: string, off: string];
const BORDER: Paint = ['\u001b[90m', '\u001b[39m'];
const HEAD: Paint = ['\u001b[36m', '\u001b[39m'];
export const HIGHLIGHT: Paint = ['\u001b[33m', '\u001b[39m'];

/** The text in a colour, when colour is on (nothing around empty text). */
export const painted = (colour: boolean, [on, off]: Paint, text: string): string =>
  colour && text !== '' ? `${on}${text}${off}` : text;

/** The table's lines, joined by `\n`, without a last one. */
export function drawFrame(frame: Frame): string {
  const { widths, colour } = frame;
  const border = (text: string) => painted(colour, BORDER, text);
  const rule = (left: string, middle: string, right: string) =>
    widths
      .map((width, i) =>
        border(`${i === 0 ? left : middle}${'─'.repeat(width + 2)}${i === widths.length - 1 ? right : ''}`),
      )
      .join('');
  const bar = border('│');
  /** A cell's text cut to its column, and the spaces that pad it there. */
  const fitted = (text: string, column: number): [string, string] => {
    const width = widths[column] ?? 0;
    const shown = clipCells(text, width);
    return [shown, ' '.repeat(Math.max(0, width - displayWidth(shown)))];
  };
  const line = (cells: string[]) => `${bar}${cells.join(bar)}${bar}`;

  const lines = [rule('┌', '┬', '┐')];
  // A header may take more than one line (a --fields path wrapped at its dots): each is drawn as a row's are.
  const headLines = frame.head.map((text) => text.split('\n'));
  for (let at = 0; at < Math.max(1, ...headLines.map((parts) => parts.length)); at++)
    lines.push(
      line(
        headLines.map((parts, i) => {
          const [shown, padding] = fitted(parts[at] ?? '', i);
          return painted(colour, HEAD, ` ${shown}${padding} `);
        }),
      ),
    );
  frame.rows.forEach((cells, row) => {
    const cellLines = cells.map((cell) => cell.split('\n'));
    const height = Math.max(1, ...cellLines.map((parts) => parts.length));
    for (let at = 0; at < height; at++)
      lines.push(
        line(
          cellLines.map((parts, i) => {
            const [shown, padding] = fitted(parts[at] ?? '', i);
            const text = frame.highlighted?.(row, i) ? painted(colour, HIGHLIGHT, shown) : shown;
            return ` ${text}${padding} `;
          }),
        ),
      );
  });
  lines.push(rule('└', '┴', '┘'));
  return lines.join('\n');
}
