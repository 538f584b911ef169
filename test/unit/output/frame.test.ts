// A table's frame: every line exactly as wide as the frame in any script, measured as a terminal (the C library's
// wcwidth) measures it, and in ASCII the very bytes the tables had before (cli-table3 drew them then).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clipCells, displayWidth } from '../../../src/cli/output/cells.js';
import { drawFrame } from '../../../src/cli/output/frame.js';
import { glibcWidth, KNOWN_CHARACTERS } from '../../helpers/glibc-width.js';

describe('displayWidth', () => {
  it('counts as glibc does, in many scripts', () => {
    const cases: [string, number][] = [
      ['अनुष्का शर्मा', 10],
      ['אָבִיגַיִל', 6],
      ['مُحَمَّد', 4],
      ['นิ้ว', 2],
      ['👩‍👩‍👧', 6],
      ['soft\u00adhyphen', 11],
      ['山田太郎', 8],
      ['☕🚀🇺🇸', 6],
      ['e\u0301', 1],
      ['\u200b', 0],
      ['x\ufe0f', 1],
      ['한국어', 6],
      ['\u1100\u1161\u11a8', 2],
    ];
    for (const [text, cells] of cases) expect(displayWidth(text), text).toBe(cells);
    for (const char of KNOWN_CHARACTERS) expect(displayWidth(char), char).toBe(glibcWidth(char));
  });

  it('cuts with … and keeps a letter with its marks', () => {
    expect(clipCells('सत्यम शर्मा', 4)).toBe('सत्य…');
    expect(displayWidth(clipCells('山田太郎', 5))).toBeLessThanOrEqual(5);
    expect(clipCells('e\u0301e\u0301e\u0301', 2)).toBe('e\u0301…');
  });
});

describe('drawFrame', () => {
  it('draws ASCII tables byte for byte as before, plain and in colour', () => {
    const frame = {
      head: ['a', 'bb'],
      rows: [
        ['x', 'y\nzz'],
        ['ééé é', 'toolongvalue'],
      ],
      widths: [3, 4],
    };
    expect(drawFrame({ ...frame, colour: false })).toBe(
      [
        '┌─────┬──────┐',
        '│ a   │ bb   │',
        '│ x   │ y    │',
        '│     │ zz   │',
        '│ éé… │ too… │',
        '└─────┴──────┘',
      ].join('\n'),
    );
    const grey = (text: string) => `\u001b[90m${text}\u001b[39m`;
    const cyan = (text: string) => `\u001b[36m${text}\u001b[39m`;
    expect(drawFrame({ ...frame, colour: true })).toBe(
      [
        grey('┌─────') + grey('┬──────┐'),
        grey('│') + cyan(' a   ') + grey('│') + cyan(' bb   ') + grey('│'),
        `${grey('│')} x   ${grey('│')} y    ${grey('│')}`,
        `${grey('│')}     ${grey('│')} zz   ${grey('│')}`,
        `${grey('│')} éé… ${grey('│')} too… ${grey('│')}`,
        grey('└─────') + grey('┴──────┘'),
      ].join('\n'),
    );
  });

  it('paints a highlighted cell, its padding left plain', () => {
    const text = drawFrame({
      head: ['field', 'value'],
      rows: [['NOTE', 'erased']],
      widths: [5, 8],
      colour: true,
      highlighted: (row, column) => row === 0 && column === 1,
    });
    expect(text.split('\n')[2]).toContain(' \u001b[33merased\u001b[39m   ');
  });

  it('makes every line as wide as the frame, whatever the script, by glibc’s count', () => {
    const piece = fc.constantFrom(
      'a',
      'Z',
      ' ',
      ...KNOWN_CHARACTERS.filter((char) => !'…┌┬┐└┴┘─│'.includes(char)),
    );
    const cell = fc.array(piece, { maxLength: 14 }).map((pieces) => pieces.join(''));
    const table = fc.integer({ min: 1, max: 4 }).chain((columns) =>
      fc.record({
        head: fc.array(cell, { minLength: columns, maxLength: columns }),
        rows: fc.array(
          fc.array(
            fc.array(cell, { minLength: 1, maxLength: 2 }).map((lines) => lines.join('\n')),
            { minLength: columns, maxLength: columns },
          ),
          { maxLength: 4 },
        ),
        widths: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: columns, maxLength: columns }),
      }),
    );
    fc.assert(
      fc.property(table, ({ head, rows, widths }) => {
        const expected = widths.reduce((sum, width) => sum + width + 3, 1);
        for (const line of drawFrame({ head, rows, widths, colour: false }).split('\n')) {
          expect(glibcWidth(line), line).toBe(expected);
          expect(displayWidth(line), line).toBe(expected);
        }
      }),
      { numRuns: 400 },
    );
  });
});
