// The terminal sanitizer, for any text (fast-check): no control, bidi or line-break character gets through.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitize, sanitizeLines } from '../../../src/cli/output/sanitize.js';

const text = fc.string({ unit: 'binary', maxLength: 40 });

describe('sanitizer', () => {
  it('leaves no control, bidi or line-break character, keeps printable text, and is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 60 }), text, (word, noise) => {
        for (const input of [word, noise, `${word}${noise}`]) {
          const out = sanitize(input);
          expect(out).not.toMatch(
            // eslint-disable-next-line no-control-regex -- the point of the test
            /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/,
          );
          expect(sanitize(out)).toBe(out);
        }
        if (/^[\x20-\x7e]*$/.test(word)) expect(sanitize(word)).toBe(word);
      }),
    );
  });

  it('keeps the lines of a text, line and paragraph separators as line feeds, and nothing else a terminal acts on', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(text, fc.constantFrom('\n', '\u2028', '\u2029', 'ok'))), (parts) => {
        const input = parts.join('');
        const out = sanitizeLines(input);
        expect(out).not.toMatch(
          // eslint-disable-next-line no-control-regex -- the point of the test
          /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/,
        );
        expect(out.split('\n')).toHaveLength(input.split(/\n|\u2028|\u2029/).length);
        expect(sanitizeLines(out)).toBe(out);
      }),
    );
  });
});
