// The one way a server value becomes text for people: any JSON value, whatever its keys, without calling a method of
// it (`String(x)` and template literals call an object's own `toString`/`valueOf`, which a server may set to 1).

/**
 * Text of any value: strings as they are, numbers and booleans as written, null/undefined empty, arrays and objects
 * as JSON. Only primitives go through String(), which runs no code of the value.
 */
export function textOf(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
      return value === null ? '' : jsonText(value);
    default:
      return ''; // undefined; functions and symbols never come from JSON
  }
}

/** JSON.stringify calls no method of parsed data (a `toJSON` key from JSON is never a function); too deep: a mark. */
function jsonText(value: object): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return Array.isArray(value) ? '[…]' : '{…}';
  }
}

/** Text joined with a separator, empty parts left out (`[first, last]` → `Ada Lovelace`). */
export function joinText(values: readonly unknown[], separator = ' '): string {
  return values
    .map(textOf)
    .filter((part) => part !== '')
    .join(separator);
}

/** At most `max` characters: longer text is cut with `…`, never in the middle of a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(1, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff && end > 1) end--;
  return `${text.slice(0, end)}…`;
}

/** Wide characters (East Asian wide and fullwidth forms, emoji) take two cells of a terminal. */
const wide = () =>
  /[\u1100-\u115f\u2329\u232a\u2e80-\u303e\u3041-\u3247\u3250-\u4dbf\u4e00-\ua4c6\ua960-\ua97c\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6b\uff01-\uff60\uffe0-\uffe6\u{1b000}-\u{1b001}\u{1f200}-\u{1f251}\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
/** Combining marks and zero-width characters take none. */
const zero = () => /[\p{Mn}\p{Me}\p{Cf}]/u;

// Made on first use: V8 builds these Unicode sets when the expressions are made (half a millisecond at every start
// before, for the many runs that never measure text).
let widthSets: { wide: RegExp; zero: RegExp } | undefined;

/** Cells a code point takes on a terminal (as cli-table3 counts them, near enough to pad and never overflow). */
function cellsOf(char: string): number {
  const { wide: isWide, zero: isZero } = (widthSets ??= { wide: wide(), zero: zero() });
  return isZero.test(char) ? 0 : isWide.test(char) ? 2 : 1;
}

/** Cells the text takes on a terminal. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += cellsOf(char);
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

/** Text padded with spaces to `width` cells (wide characters count two). */
export const padCells = (text: string, width: number): string =>
  text + ' '.repeat(Math.max(0, width - displayWidth(text)));

/**
 * Lines of at most `width` cells, broken at spaces where it can (a field name: after its dots, then underscores) and
 * inside a word that is longer than a line; a leading indent is kept on every line.
 */
export function wrapText(text: string, width: number, fieldName = false): string[] {
  const indent = /^ */.exec(text)?.[0] ?? '';
  if (indent !== '' && indent.length < width)
    return wrapText(text.slice(indent.length), width - indent.length, fieldName).map((line) => indent + line);
  const max = Math.max(1, width);
  // Words and what joins them on one line: a space (dropped at a break), or nothing after a `.` (kept), and after
  // a `_` only in a part too long for a line.
  const words = fieldName
    ? text.split(/(?<=\.)/).flatMap((part) => (displayWidth(part) > max ? part.split(/(?<=_)/) : [part]))
    : text.split(' ');
  const joiner = fieldName ? '' : ' ';
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const word of words) {
    const cells = displayWidth(word);
    if (used > 0 && used + joiner.length + cells <= max) {
      line += joiner + word;
      used += joiner.length + cells;
      continue;
    }
    if (used > 0) {
      lines.push(line);
      line = '';
      used = 0;
    }
    for (const char of word) {
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

/** `1 record`, `2 records`: a count with its noun, singular or plural. */
export const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
