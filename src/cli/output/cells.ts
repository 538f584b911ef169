// How many cells of a terminal text takes, the way the C library's wcwidth counts them (what most terminals follow):
// one measure for everything laid out in columns (tables, record views, doctor, chat tail), so that what is fitted,
// padded and cut agrees on every line whatever the script.
import { eastAsianWidth } from 'get-east-asian-width';

/**
 * No cell: combining marks (a Hebrew vowel point, a Devanagari virama, Thai tone marks), format characters (a zero
 * width joiner), and the Hangul vowels and final consonants that join the letter before them.
 */
const zero = () => /[\p{Mn}\p{Me}\p{Cf}\u1160-\u11ff\ud7b0-\ud7ff]/u;
/** Format characters that are drawn all the same: the soft hyphen, Arabic and Syriac number signs. */
const drawn = () => /[\u00ad\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u{110bd}\u{110cd}]/u;

// Made on first use: V8 builds these Unicode sets when the expressions are made (half a millisecond at every start
// before, for the many runs that never measure text).
let zeroSets: { zero: RegExp; drawn: RegExp } | undefined;

/**
 * Cells a code point takes: none for the above and for control characters (which never reach a terminal: see
 * sanitize.ts), two for East Asian wide and fullwidth characters (emoji among them), one for the rest.
 */
function cellsOfCode(code: number): number {
  if (code >= 0x20 && code < 0x7f) return 1;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return 0;
  const sets = (zeroSets ??= { zero: zero(), drawn: drawn() });
  const char = String.fromCodePoint(code);
  if (sets.zero.test(char) && !sets.drawn.test(char)) return 0;
  return eastAsianWidth(code);
}

/** Cells a character (one code point) takes. */
const cellsOf = (char: string): number => cellsOfCode(char.codePointAt(0) ?? 0);

/** Cells the text takes on a terminal. */
export function displayWidth(text: string): number {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit < 0x7f) {
      width++;
      continue;
    }
    const code = text.codePointAt(i) ?? unit;
    if (code > 0xffff) i++;
    width += cellsOfCode(code);
  }
  return width;
}

/** At most `max` cells of a terminal: longer text is cut with `…`, never inside a character or before its marks. */
export function clipCells(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  let kept = '';
  let used = 0;
  for (const char of text) {
    const cells = cellsOf(char);
    if (used + cells > max - 1) break;
    kept += char;
    used += cells;
  }
  return `${kept}…`;
}

/** Text padded with spaces to `width` cells. */
export const padCells = (text: string, width: number): string =>
  text + ' '.repeat(Math.max(0, width - displayWidth(text)));

/**
 * Lines of at most `width` cells, never cut: broken at spaces where it can, and inside a word longer than a line
 * after an `@` or a `/` first (`ada.lovelace@` `example.com`, `http://127.0.0.1:8080/` `api`), then, in a piece still
 * longer than a line, after a `.`, `_`, `-` or `:` (`CUSTOMER_` `ERASED`; never inside a number, `127.0.0.1`); anywhere
 * only when a piece is longer than a line. A field name breaks after its dots, then its `_`. A leading indent is kept
 * on every line.
 */
export function wrapText(text: string, width: number, fieldName = false): string[] {
  const indent = /^ */.exec(text)?.[0] ?? '';
  if (indent !== '' && indent.length < width)
    return wrapText(text.slice(indent.length), width - indent.length, fieldName).map((line) => indent + line);
  const max = Math.max(1, width);
  if (fieldName) {
    const parts = text
      .split(/(?<=\.)/)
      .flatMap((part) => (displayWidth(part) > max ? part.split(/(?<=_)/) : [part]));
    return wrapPieces(
      parts.map((part) => ({ text: part, join: '' })),
      max,
    );
  }
  const within = (piece: string, breaks: RegExp) =>
    displayWidth(piece) > max ? piece.split(breaks) : [piece];
  const pieces = spaced(text.split(' ')).flatMap(({ text: word, join }) =>
    within(word, STRONG_BREAKS)
      .flatMap((piece) => within(piece, WEAK_BREAKS))
      .map((piece, i) => ({ text: piece, join: i === 0 ? join : '' })),
  );
  return wrapPieces(pieces, max);
}

/** Where a word longer than a line breaks first: after `@` or `/` (an address's parts; `https://` stays with its host). */
const STRONG_BREAKS = /(?<=@)|(?<=\/)(?<!:\/\/)(?!\/)/;
/** Then, in a piece still longer than a line: after `_`, `-`, a `:` (a port), or a `.` that is not inside a number. */
const WEAK_BREAKS = /(?<=[_-])|(?<=:)(?!\/)|(?<=\.)(?!\d)|(?<=(?<!\d)\.)/;

/** What is put on a line: a piece of text, and what joins it to the one before on the same line (dropped at a break). */
interface Piece {
  text: string;
  join: string;
}

/** Words apart by spaces. */
const spaced = (words: readonly string[]): Piece[] =>
  words.map((word, i) => ({ text: word, join: i === 0 ? '' : ' ' }));

/** Pieces into lines of at most `max` cells; a piece longer than a line is broken inside. */
function wrapPieces(pieces: readonly Piece[], max: number): string[] {
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const { text: piece, join } of pieces) {
    const cells = displayWidth(piece);
    // A line of marks alone (no cell) is a line all the same: what follows joins it with its space.
    if (line !== '' && used + join.length + cells <= max) {
      line += join + piece;
      used += join.length + cells;
      continue;
    }
    if (line !== '') {
      lines.push(line);
      line = '';
      used = 0;
    }
    for (const char of piece) {
      const cells = cellsOf(char);
      if (used > 0 && used + cells > max) {
        lines.push(line);
        line = '';
        used = 0;
      }
      line += char;
      used += cells;
    }
  }
  lines.push(line);
  return lines;
}
