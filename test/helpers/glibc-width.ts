// The yardstick for text laid out in columns, kept apart from the code under test (src/cli/output/cells.ts): the
// cells glibc 2.36's wcwidth gives each character the tests use (read off with Python's ctypes), as a terminal that
// follows it draws them. Combining marks, joiners and Hangul's medial vowels take none; a soft hyphen takes one.

/** Cells of each character, by its code point. */
// prettier-ignore
const CELLS: Record<number, number> = {
  // Devanagari: letters and the vowel sign aa take one; the vowel sign u and the virama none.
  0x0905: 1, 0x0915: 1, 0x0928: 1, 0x092e: 1, 0x0930: 1, 0x0936: 1, 0x0937: 1, 0x093e: 1, 0x0941: 0, 0x094d: 0,
  // Hebrew letters, and their points.
  0x05d0: 1, 0x05d1: 1, 0x05d2: 1, 0x05d9: 1, 0x05dc: 1, 0x05b4: 0, 0x05b7: 0, 0x05b8: 0,
  // Arabic letters, and their vowel marks.
  0x062d: 1, 0x062f: 1, 0x0645: 1, 0x064e: 0, 0x064f: 0, 0x0651: 0,
  // Thai letters, a vowel sign and a tone mark.
  0x0e19: 1, 0x0e27: 1, 0x0e34: 0, 0x0e49: 0,
  // Hangul syllables, a leading consonant, a medial vowel.
  0xd55c: 2, 0xad6d: 2, 0xc5b4: 2, 0x1100: 2, 0x1161: 0,
  // CJK ideographs.
  0x5c71: 2, 0x7530: 2, 0x592a: 2, 0x90ce: 2,
  // Emoji, and what joins or styles them.
  0x1f469: 2, 0x1f467: 2, 0x1f680: 2, 0x2615: 2, 0x200d: 0, 0xfe0f: 0,
  // Latin: é, a combining acute accent; a zero width space, a soft hyphen, an ellipsis.
  0x00e9: 1, 0x0301: 0, 0x200b: 0, 0x00ad: 1, 0x2026: 1,
  // The frame of a table.
  0x250c: 1, 0x252c: 1, 0x2510: 1, 0x2514: 1, 0x2534: 1, 0x2518: 1, 0x2500: 1, 0x2502: 1,
};

/** The characters the yardstick knows besides printable ASCII. */
export const KNOWN_CHARACTERS: readonly string[] = Object.keys(CELLS).map((code) =>
  String.fromCodePoint(Number(code)),
);

/** Cells of a line as glibc counts them; throws on a character the yardstick does not know. */
export function glibcWidth(line: string): number {
  let cells = 0;
  for (const char of line) {
    const code = char.codePointAt(0) as number;
    if (code >= 0x20 && code < 0x7f) cells += 1;
    else if (code in CELLS) cells += CELLS[code] as number;
    else throw new Error(`the yardstick knows no width for U+${code.toString(16)}`);
  }
  return cells;
}
