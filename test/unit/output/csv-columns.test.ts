// CSV columns that do not depend on which records come first: the declared fields, then every field of the first
// page (objects as dotted columns whichever record shows them); later fields named once; --fields pins the columns.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { APPOINTMENT_COLUMNS } from '../../../src/commands/appointments/list.js';
import { CsvColumns } from '../../../src/cli/output/csv-columns.js';
import type { Column } from '../../../src/cli/output/table.js';
import { createListWriter, type OutputSpec, writeResource } from '../../../src/cli/output/render.js';
import { declaredFields, declaredFieldsAt } from '../../../src/core/api/declared-fields.js';
import { stringSink } from '../../helpers/sink.js';

const spec = (extra: Partial<OutputSpec> = {}): OutputSpec & { warnings: string[] } => {
  const warnings: string[] = [];
  return {
    format: 'csv',
    colour: false,
    width: 120,
    warn: (line) => warnings.push(line),
    warnings,
    ...extra,
  };
};

/** A CSV list written a page at a time, as `showList` writes it: its text and its warnings. */
async function csvPages(pages: unknown[][], extra: Partial<OutputSpec> = {}, columns: Column[] = []) {
  const sink = stringSink();
  const csv = spec(extra);
  const writer = createListWriter(sink, csv, columns);
  for (const page of pages) await writer.writeMany(page);
  await writer.end();
  return { text: sink.text, rows: parse(sink.text) as string[][], warnings: csv.warnings };
}

describe('CsvColumns', () => {
  it('takes the declared fields first, then the first page’s other fields in the order met', () => {
    const columns = new CsvColumns(['id', 'state.a', 'state.b'], [{ extra: 1, id: 2, state: { c: 3 } }]);
    expect(columns.columns).toEqual(['id', 'state.a', 'state.b', 'state.c', 'extra']);
  });

  it('gives an object’s fields their own columns when another record of the page has it null', () => {
    const page = [
      { id: 1, address: null },
      { id: 2, address: { city: 'Oslo', zip: '0150' } },
      { id: 3, address: { city: 'Bergen', geo: { lat: 60 } } },
    ];
    expect(new CsvColumns([], page).columns).toEqual([
      'id',
      'address.city',
      'address.zip',
      'address.geo.lat',
    ]);
  });

  it('keeps a column for a field that is a value in one record and an object in another (nothing is lost)', () => {
    const columns = new CsvColumns([], [{ note: 'text' }, { note: { by: 'x' } }]).columns;
    expect(columns).toEqual(['note', 'note.by']);
  });

  it('names, once each, the fields of later records that no column holds', () => {
    const columns = new CsvColumns(['id'], [{ id: 1, address: { city: 'Oslo' }, tags: null }]);
    expect(columns.unheld({ id: 2, vip: true, address: { city: 'X', zip: '1' }, tags: ['a'] })).toEqual([
      'vip',
      'address.zip',
    ]);
    expect(columns.unheld({ id: 3, vip: false, address: { zip: '2' } })).toEqual([]);
    // A value where the columns hold only an object's fields is left out too.
    expect(columns.unheld({ address: 'Main Street 1' })).toEqual(['address']);
    expect(columns.unheld({ address: 'Side Street 2' })).toEqual([]);
    expect(columns.unheld({ address: { country: 'NO' } })).toEqual(['address.country']);
    expect(columns.unheld({ address: null, tags: { nested: 1 } })).toEqual([]);
  });
});

describe('CSV list output', () => {
  it('dotted columns for an object null in the first record (the values of later records kept)', async () => {
    const { rows, warnings } = await csvPages([
      [
        { id: 1, address: null },
        { id: 2, address: { city: 'Oslo' } },
      ],
    ]);
    expect(rows).toEqual([
      ['id', 'address.city'],
      ['1', ''],
      ['2', 'Oslo'],
    ]);
    expect(warnings).toEqual([]);
  });

  it('a field first seen after the first page is left out and named once on stderr', async () => {
    const { rows, warnings } = await csvPages([
      [{ id: 1 }, { id: 2 }],
      [
        { id: 3, vip: true },
        { id: 4, vip: false, extra: { a: 1 } },
      ],
      [{ id: 5, vip: true, extra: { a: 2 } }],
    ]);
    expect(rows.map((row) => row.join('|'))).toEqual(['id', '1', '2', '3', '4', '5']);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^warning: CSV: vip first seen after the first page.*--fields/);
    expect(warnings[1]).toMatch(/^warning: CSV: extra first seen/);
  });

  it('the declared fields lead, even when no record of the first page has them', async () => {
    const { rows } = await csvPages([[{ id: 1, other: 'x' }]], { declared: ['id', 'cancelled_by.id'] });
    expect(rows).toEqual([
      ['id', 'cancelled_by.id', 'other'],
      ['1', '', 'x'],
    ]);
  });

  it('an empty result still prints the header: the declared fields, or --fields', async () => {
    expect((await csvPages([[]], { declared: ['id', 'state.a'] })).text).toBe('id,state.a\r\n');
    expect((await csvPages([], { fields: ['email', 'id'] })).text).toBe('email,id\r\n');
  });

  it('an empty result of a resource without declared fields: the header of the fields its table shows', async () => {
    const { text, warnings } = await csvPages([[]], {}, APPOINTMENT_COLUMNS);
    expect(text).toBe('id,starts_at,ends_at,status,customer_id,user_id,title\r\n');
    expect(warnings).toEqual([]);
    // --fields still pins them.
    expect((await csvPages([[]], { fields: ['id'] }, APPOINTMENT_COLUMNS)).text).toBe('id\r\n');
  });

  it('an empty result with no columns known writes nothing and says why', async () => {
    const { text, warnings } = await csvPages([[]]);
    expect(text).toBe('');
    expect(warnings).toEqual([expect.stringMatching(/^note: no records.*--fields/)]);
  });

  it('--fields pins the columns exactly: an object stays one JSON cell, new fields are not reported', async () => {
    const { rows, warnings } = await csvPages(
      [[{ id: 1, record_state: { is_read_only: false } }], [{ id: 2, record_state: null, vip: true }]],
      { fields: ['id', 'record_state'], declared: ['id', 'record_state.is_read_only'] },
    );
    expect(rows).toEqual([
      ['id', 'record_state'],
      ['1', '{"is_read_only":false}'],
      ['2', ''],
    ]);
    expect(warnings).toEqual([]);
  });

  it('--fields naming a path no record has: one warning at the end, none when some record has it', async () => {
    const pages = [[{ id: 1, a: { b: null } }], [{ id: 2 }]];
    const { warnings } = await csvPages(pages, { fields: ['id', 'a.b', 'nope', 'a.c'] });
    expect(warnings).toEqual(['warning: --fields: no record has nope, a.c: check the names']);
    for (const format of ['json', 'ndjson', 'table'] as const) {
      const sink = stringSink();
      const json = spec({ format, fields: ['id', 'nope'] });
      const writer = createListWriter(sink, json, []);
      await writer.writeMany([{ id: 1 }]);
      await writer.end();
      expect(json.warnings, format).toEqual(['warning: --fields: no record has nope: check the name']);
    }
    expect((await csvPages([[]], { fields: ['nope'] })).warnings).toEqual([]);
  });
});

describe('CSV record output', () => {
  it('one record: the declared fields first, with dotted columns for a null object', async () => {
    const sink = stringSink();
    const declared = ['id', 'customer.id', 'customer.email', 'status'];
    await writeResource(sink, spec({ declared }), { id: 5, customer: null, status: 'verified', extra: 1 });
    expect(sink.text).toBe('id,customer.id,customer.email,status,extra\r\n5,,,verified,1\r\n');
  });
});

describe('declared fields (clinic-api.md)', () => {
  it('lists nested fields as dotted paths, in the document’s order', () => {
    const erasure = declaredFields('DataErasureRequest');
    expect(erasure.slice(0, 5)).toEqual([
      'id',
      'tenant_id',
      'customer_id',
      'customer.id',
      'customer.record_state.is_read_only',
    ]);
    expect(erasure).toContain('cancelled_by.name');
    expect(erasure).toContain('state_allows.certificate');
    expect(erasure.at(-1)).toBe('updated_at');
  });

  it('knows the resource an API path answers with', () => {
    expect(declaredFieldsAt('/v1/data-erasure-requests')).toEqual(declaredFields('DataErasureRequest'));
    expect(declaredFieldsAt('/v1/data-erasure-requests/12/cancel')).toEqual(
      declaredFields('DataErasureRequest'),
    );
    expect(declaredFieldsAt('/v1/customers/3')).toEqual(declaredFields('Customer'));
    expect(declaredFieldsAt('/v1/conversations/4/messages')).toEqual(declaredFields('ChatLog'));
    expect(declaredFieldsAt('/v1/conversations/4/messages/voice')).toEqual(declaredFields('VoiceMessageAck'));
    expect(declaredFieldsAt('/v1/appointments')).toBeUndefined();
  });
});
