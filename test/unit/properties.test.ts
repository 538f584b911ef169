// Property tests (fast-check): the CSV writer, the sanitizer, the error mapper and config precedence hold for any
// input, not just the examples elsewhere.
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvRecord, csvRow } from '../../src/cli/output/csv.js';
import { sanitize } from '../../src/cli/output/sanitize.js';
import { Settings } from '../../src/core/config/settings.js';
import { toExitCode } from '../../src/core/exit-codes.js';
import { parseApiError } from '../../src/core/http/parse-error.js';

const text = fc.string({ unit: 'binary', maxLength: 40 });

describe('CSV writer', () => {
  it('round-trips through a CSV parser exactly with --csv-raw', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 6 }), (cells) => {
        const columns = cells.map((_, i) => `c${i}`);
        const record = Object.fromEntries(columns.map((c, i) => [c, cells[i]]));
        const csv = csvRow(columns, true) + csvRecord(record, columns, true);
        const [parsed] = parse(csv, { columns: true, relax_column_count: false }) as Record<string, string>[];
        expect(parsed).toEqual(record);
      }),
    );
  });

  it('by default changes a cell only by a leading quote, and only one that could start a formula', () => {
    fc.assert(
      fc.property(text, (cell) => {
        const written = (parse(csvRow([cell])) as string[][])[0]?.[0];
        if (written === cell) return;
        expect(written).toBe(`'${cell}`);
        expect(cell).toMatch(/^[=+\-@\t\r]/);
      }),
    );
  });
});

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
});

describe('error mapper', () => {
  const body = fc.oneof(
    text,
    fc.json(),
    fc
      .record({
        success: fc.boolean(),
        error_code: fc.oneof(
          fc.constantFrom('CUSTOMER_ERASED', 'LEAD_NOT_ASSIGNED', 'SETUP_REQUIRED', 'X'),
          text,
        ),
        message: text,
        errors: fc.oneof(fc.constant(null), fc.dictionary(text, fc.array(text))),
        data: fc.oneof(
          fc.constant(null),
          fc.record({ message: text, next_step: fc.oneof(text, fc.constant(null)) }),
        ),
      })
      .map((value) => JSON.stringify(value)),
  );

  it("any status and any body give a defined exit code, by the contract's table", () => {
    fc.assert(
      fc.property(fc.integer({ min: 300, max: 599 }), body, (status, bodyText) => {
        const error = parseApiError(status, bodyText);
        const code = toExitCode(error);
        expect([1, 3, 4, 5, 6, 7, 8, 9]).toContain(code);
        const readOnly = error.code === 'CUSTOMER_ERASED';
        const expected = readOnly
          ? 6
          : (({ 401: 3, 403: 4, 404: 5, 409: 6, 422: 7, 428: 8, 429: 9, 503: 9 } as Record<number, number>)[
              status
            ] ?? 1);
        expect(code).toBe(expected);
        expect(typeof error.message).toBe('string');
        expect(error.message.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('config precedence', () => {
  it('flag > environment > profile > default, whichever are present', () => {
    const maybe = fc.option(fc.integer({ min: 1, max: 9999 }).map(String), { nil: undefined });
    fc.assert(
      fc.property(maybe, maybe, maybe, (flag, env, profile) => {
        const data = { profiles: { p: profile === undefined ? {} : { tenant: profile } } };
        const settings = new Settings(
          { name: 'p', source: 'flag' },
          data,
          env === undefined ? {} : { CLINIC_TENANT: env },
          { tenant: flag },
        );
        const described = settings.describe('tenant');
        expect(described.value).toBe(flag ?? env ?? profile);
        expect(described.source).toBe(
          flag !== undefined
            ? 'flag'
            : env !== undefined
              ? 'env'
              : profile !== undefined
                ? 'profile'
                : undefined,
        );
        expect(settings.get('scopes')).toBe('openid *'); // the default when nothing else says
      }),
    );
  });
});
