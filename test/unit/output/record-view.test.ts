// One record as field/value rows: long values wrapped inside the terminal's width, lists of objects as indented
// sub-rows (one per item, so a failure reason in the fourth item is read in full), lists of plain values joined.
import { describe, expect, it } from 'vitest';
import { renderFieldTable } from '../../../src/cli/output/record-table.js';
import { wrapText } from '../../../src/cli/output/cells.js';
import { HumanTimes } from '../../../src/cli/output/time.js';

const FAILURE = 'The document store did not confirm the deletion; review before retrying.';
const request = {
  id: 16,
  status: 'failed',
  customer: { id: 35, record_state: { is_read_only: false, reason_code: null } },
  execution_report: [
    { resource: 'customer_profile', status: 'erased', records: 1, message: null },
    { resource: 'conversations', status: 'erased', records: 2, message: null },
    { resource: 'appointments', status: 'erased', records: 3, message: null },
    { resource: 'documents', status: 'failed', records: 0, message: FAILURE },
  ],
  language: ['en', 'de'],
  avatar_url: `https://cdn.clinic.test/avatars/${'x'.repeat(120)}.png`,
};

const view = (width: number) =>
  renderFieldTable(request, { colour: false, width, times: new HumanTimes(true) });
/** The value column's text, lines joined (wrapping undone). */
const values = (table: string) =>
  table
    .split('\n')
    .map((line) => line.split('│')[2]?.trim() ?? '')
    .join(' ');

describe('the record view', () => {
  it.each([40, 60, 80, 120])('at %i columns: every line within the width', async (width) => {
    for (const line of (await view(width)).trimEnd().split('\n'))
      expect([...line].length).toBeLessThanOrEqual(width);
  });

  it('shows a list of objects as one indented sub-row per item, the fourth with its whole failure reason', async () => {
    const table = await view(80);
    const lines = table.split('\n');
    const report = lines.findIndex((line) => line.startsWith('│ execution_report '));
    expect(report).toBeGreaterThan(0);
    expect(lines[report + 1]).toMatch(/^│ {3}1 +│ resource: customer_profile · /);
    expect(values(table)).toContain('resource: customer_profile · status: erased · records: 1');
    expect(lines.some((line) => line.startsWith('│   4 '))).toBe(true);
    expect(values(table)).toContain(
      `resource: documents · status: failed · records: 0 · message: ${FAILURE}`,
    );
    expect(table).not.toContain('[{');
  });

  it("a list of objects inside an item (a question's options) nests below it; empty lists are left out", () => {
    const template = {
      id: 1,
      questions: [
        {
          id: 5,
          text: 'Allergies?',
          options: [
            { id: 1, label: 'Yes' },
            { id: 2, label: 'No' },
          ],
          visibility_rules: [],
        },
        { id: 6, text: 'Since when?', options: [], visibility_rules: [{ question_id: 5, equals: 'Yes' }] },
      ],
    };
    const table = renderFieldTable(template, { colour: false, width: 80 });
    const rows = table
      .split('\n')
      .filter((line) => line.startsWith('│'))
      .map((line) =>
        line
          .split('│')
          .slice(1, 3)
          .map((cell) => cell.trimEnd().slice(1)),
      );
    expect(rows.slice(2)).toEqual([
      ['questions', ''],
      ['  1', 'id: 5 · text: Allergies?'],
      ['    options', ''],
      ['      1.1', 'id: 1 · label: Yes'],
      ['      1.2', 'id: 2 · label: No'],
      ['  2', 'id: 6 · text: Since when?'],
      ['    visibility_rules', ''],
      ['      2.1', 'question_id: 5 · equals: Yes'],
    ]);
    expect(table).not.toMatch(/\[\{|: ·|options: *│/);
  });

  it('joins a list of plain values, and wraps a long value rather than cutting it', async () => {
    const table = await view(60);
    expect(table).toMatch(/│ language +│ en, de +│/);
    expect(values(table).replaceAll(' ', '')).toContain(request.avatar_url);
    expect(table).not.toContain('…');
  });

  it('breaks a long field name after a dot or an underscore, a value at spaces', () => {
    expect(wrapText('customer.record_state.reason_code', 22, true)).toEqual([
      'customer.record_state.',
      'reason_code',
    ]);
    expect(wrapText('emergency_contact_phone_number', 20, true)).toEqual([
      'emergency_contact_',
      'phone_number',
    ]);
    expect(wrapText('  4', 10)).toEqual(['  4']);
    expect(wrapText('one two three', 7)).toEqual(['one two', 'three']);
    expect(wrapText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    // A word longer than a line breaks after `.`, `_`, `@`, `-` or `/`: an address keeps its port whole.
    // An address breaks after its '/' first, never inside the number of its host.
    expect(wrapText('http://127.0.0.1:42703/api', 23)).toEqual(['http://127.0.0.1:42703/', 'api']);
    expect(wrapText('http://127.0.0.1:42703/api', 21)).toEqual(['http://127.0.0.1:', '42703/api']);
    expect(wrapText('https://cdn.example.com/users/1.png', 30)).toEqual([
      'https://cdn.example.com/users/',
      '1.png',
    ]);
    expect(wrapText('fatima.andersen3@example.com', 25)).toEqual(['fatima.andersen3@', 'example.com']);
    expect(wrapText('v1.2.3-rc.1_build', 8)).toEqual(['v1.2.3-', 'rc.1_', 'build']);
    expect(wrapText('ada.lovelace@example.com', 15)).toEqual(['ada.lovelace@', 'example.com']);
    // A word of marks alone keeps the space after it.
    expect(wrapText('\u0301 abc', 10)).toEqual(['\u0301 abc']);
  });
});
