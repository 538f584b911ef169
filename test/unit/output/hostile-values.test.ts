// Any JSON value in any field renders (fast-check): tables at three widths, the record view, CSV, the chat tail line
// and tenants never throw, whatever the server sends (keys such as toString or __proto__, control characters, huge
// numbers, deep nesting), and nothing they write for a terminal carries a control character.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvColumns } from '../../../src/cli/output/csv-columns.js';
import { cellText, flatten, pickFields, valueAt } from '../../../src/cli/output/fields.js';
import { recordMarks } from '../../../src/cli/output/marks.js';
import { createListWriter, type OutputSpec, writeResource } from '../../../src/cli/output/render.js';
import { renderFieldTable } from '../../../src/cli/output/record-table.js';
import { type Column, renderTable } from '../../../src/cli/output/table.js';
import { displayWidth } from '../../../src/cli/output/cells.js';
import { HumanTimes } from '../../../src/cli/output/time.js';
import { humanLine } from '../../../src/commands/chat/human-line.js';
import { APPOINTMENT_COLUMNS } from '../../../src/commands/appointments/list.js';
import { MESSAGE_COLUMNS } from '../../../src/commands/conversations/messages.js';
import { CUSTOMER_COLUMNS } from '../../../src/commands/customers/columns.js';
import { ERASURE_COLUMNS } from '../../../src/commands/erasure/columns.js';
import { describeTenant, findTenant, tenantsOf } from '../../../src/cli/account-tenants.js';
import { listedTenant, TENANT_COLUMNS } from '../../../src/commands/tenants/list.js';
import type { TailEvent } from '../../../src/core/realtime/events.js';

/** C0 but the line feed, DEL, C1 and the bidi controls: none may reach a terminal. */
// eslint-disable-next-line no-control-regex -- the point of the test
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const HOSTILE_KEYS = [
  'toString',
  'valueOf',
  '__proto__',
  'constructor',
  'toJSON',
  'then',
  'hasOwnProperty',
  'length',
];
/** Names the renderers look for, so hostile values land where a column or a mark reads them. */
const KNOWN_KEYS = [
  'id', 'first_name', 'last_name', 'email', 'created_at', 'customer', 'customer_id', 'is_masked', 'is_lead_stage',
  'lead_id', 'record_state', 'is_read_only', 'reason_code', 'status', 'state_allows', 'cancel', 'body', 'sender_type',
  'sender_id', 'media_type', 'conversation_id', 'conversationId', 'chatLogId', 'deletedByUserName', 'slug', 'name',
  'tenants', 'starts_at',
]; // prettier-ignore
const CONTROLS = [
  '\u0000', '\u0007', '\u0008', '\t', '\n', '\r', '\u000b', '\u001b', '\u001b]2;pwned\u0007', '\u001b[2J', '\u007f',
  '\u0085', '\u009b', '\u061c', '\u200e', '\u202e', '\u2066', '\u2028', '\ud83d\ude00', '=cmd|', '+1',
]; // prettier-ignore

const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc
    .array(fc.oneof(fc.constantFrom(...CONTROLS), fc.string({ maxLength: 4 })), { maxLength: 8 })
    .map((parts) => parts.join('')),
);
const key = fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.constantFrom(...KNOWN_KEYS), hostileText);
/** Number literals as a server may write them: huge, tiny, past a double's range (1e400 parses as Infinity). */
const numberText = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '-0', '5e-324', '0.1'),
);

/** JSON text whose objects carry hostile keys (JSON.parse keeps `__proto__` as an own key, as the CLI gets it). */
const hostileJson: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileText.map((s) => JSON.stringify(s)),
    numberText,
    fc.constantFrom('null', 'true', 'false'),
    fc.array(tie('node'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(key, tie('node')), { maxLength: 6 })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).node;

/** Any JSON value: fast-check's own, or one with hostile keys and text; records are mostly objects. */
const anyValue = fc.oneof(
  fc.jsonValue(),
  hostileJson.map((text) => JSON.parse(text) as unknown),
);
const anyRecord = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.tuple(key, anyValue), { maxLength: 10 }).map(objectOf) },
  { weight: 1, arbitrary: anyValue },
);

/** An object with exactly these own keys, `__proto__` included, as JSON.parse would build it. */
function objectOf(entries: [string, unknown][]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [k, v] of entries)
    Object.defineProperty(record, k, { value: v, enumerable: true, writable: true, configurable: true });
  return record;
}

const COLUMN_SETS: [string, Column[]][] = [
  ['customers', CUSTOMER_COLUMNS],
  ['appointments', APPOINTMENT_COLUMNS],
  ['messages', MESSAGE_COLUMNS],
  ['erasure', ERASURE_COLUMNS],
  ['tenants', TENANT_COLUMNS],
];
const WIDTHS = [40, 80, 200];

function capture() {
  let text = '';
  return {
    sink: {
      write: async (chunk: string) => {
        text += chunk;
      },
    },
    text: () => text,
  };
}

const terminal = (format: OutputSpec['format'], width: number): OutputSpec => ({
  format,
  colour: false,
  width,
  terminal: true,
});

function expectSafe(text: string): void {
  const found = CONTROL.exec(text);
  expect(
    found,
    `control character U+${found?.[0].codePointAt(0)?.toString(16)} in ${JSON.stringify(text)}`,
  ).toBeNull();
}

const RUNS = { numRuns: 100 };
const view = (width: number) => ({ width, now: 0, times: new HumanTimes(false) });

describe('the one stringifier', () => {
  it('gives text for any value without calling a method of it', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        expect(typeof cellText(value)).toBe('string');
      }),
      RUNS,
    );
  });

  it('reads only own fields: an inherited toString or constructor is no value', () => {
    const record = JSON.parse('{"a":{"b":1},"__proto__":{"x":2}}') as unknown;
    expect(valueAt(record, 'toString')).toBeUndefined();
    expect(valueAt(record, 'constructor')).toBeUndefined();
    expect(valueAt(record, 'a.hasOwnProperty')).toBeUndefined();
    expect(valueAt(record, '__proto__.x')).toBe(2);
    expect(Object.keys(flatten(record))).toEqual(['a.b', '__proto__.x']);
    expect(new CsvColumns([], [record]).columns).toEqual(['a.b', '__proto__.x']);
    expect(new CsvColumns([], [{}]).unheld(JSON.parse('{"__proto__":{"x":1}}'))).toEqual(['__proto__']);
  });

  it('--fields __proto__.x keeps the field as data and leaves every prototype alone', () => {
    const picked = pickFields(JSON.parse('{"__proto__":{"x":1}}'), ['__proto__.x', 'constructor.y']);
    expect(JSON.stringify(picked)).toBe('{"__proto__":{"x":1},"constructor":{"y":null}}');
    expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('every renderer takes any record', () => {
  it.each(COLUMN_SETS)(
    'a %s table at widths 40, 80, 200: every line inside the frame and the width, no control character',
    async (_, columns) => {
      await fc.assert(
        fc.asyncProperty(fc.array(anyRecord, { minLength: 1, maxLength: 4 }), async (records) => {
          for (const width of WIDTHS) {
            const { text: table } = renderTable(records, columns, { colour: false, width });
            expectSafe(table);
            // top border, header, a line or more per record (a long kept value wraps in its cell), bottom border,
            // then the marks left out of the table, a line each: a value cannot forge a line of its own
            const lines = table.trimEnd().split('\n');
            const frame = lines.slice(0, lines.findIndex((line) => line.startsWith('└')) + 1);
            expect(frame.length).toBeGreaterThanOrEqual(records.length + 3);
            for (const line of frame) expect(line).toMatch(/^[┌│└].*[┐│┘]$/);
            // Each note a line (`note on ID 6: masked`), indented where it wraps.
            for (const line of lines.slice(frame.length)) expect(line).toMatch(/^(note on | {2})/);
            for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
          }
        }),
        RUNS,
      );
    },
  );

  it('a table of the columns the records themselves have (--fields), at every width', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyRecord, { minLength: 1, maxLength: 3 }), async (records) => {
        const fields = Object.keys(flatten(records[0])).filter((c) =>
          /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(c),
        );
        for (const width of WIDTHS) {
          const out = capture();
          const writer = createListWriter(
            out.sink,
            { ...terminal('table', width), fields: fields.length ? fields : ['id'] },
            [],
          );
          await writer.writeMany(records);
          await writer.end();
          expectSafe(out.text());
        }
      }),
      RUNS,
    );
  });

  it('the record (field/value) view at every width: no control character, at least a line per field', async () => {
    await fc.assert(
      fc.asyncProperty(anyRecord, async (record) => {
        for (const width of WIDTHS) {
          const out = capture();
          await writeResource(out.sink, terminal('table', width), record);
          expectSafe(out.text());
          const rows = Object.keys(flatten(record)).length + (recordMarks(record) ? 1 : 0);
          expect(out.text().split('\n').length).toBeGreaterThanOrEqual(rows + 4);
          expectSafe(renderFieldTable(record, { colour: false, width }));
        }
      }),
      RUNS,
    );
  });

  it('CSV on a terminal: no control character but the line feed that ends each row', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyRecord, { minLength: 1, maxLength: 4 }), async (records) => {
        const list = capture();
        const writer = createListWriter(list.sink, terminal('csv', 80), []);
        await writer.writeMany(records);
        await writer.end();
        expectSafe(list.text());
        expect(list.text().split('\n')).toHaveLength(records.length + 2); // header, rows, the empty tail
        const one = capture();
        await writeResource(one.sink, terminal('csv', 80), records[0]);
        expectSafe(one.text());
      }),
      RUNS,
    );
  });

  it('CSV into a pipe (and --csv-raw on a terminal) takes any record too', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyRecord, { minLength: 1, maxLength: 4 }), async (records) => {
        for (const spec of [
          { ...terminal('csv', 80), terminal: false },
          { ...terminal('csv', 80), csvRaw: true },
        ]) {
          const out = capture();
          const writer = createListWriter(out.sink, spec, []);
          await writer.writeMany(records);
          await writer.end();
          expect(out.text().endsWith('\r\n')).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('the chat tail line: one line, within the width, no control character, for any payload of any event', () => {
    fc.assert(
      fc.property(
        anyRecord,
        fc.constantFrom<TailEvent['kind']>('created', 'deleted', 'read'),
        fc.constantFrom<TailEvent['source']>('realtime', 'rest'),
        fc.constantFrom(1, 40, 80, 200),
        (data, kind, source, width) => {
          const line = humanLine({ kind, source, data: data as TailEvent['data'] }, view(width));
          expectSafe(line);
          expect(line).not.toContain('\n');
          // In the cells a terminal gives it (a wide character takes two, a zero-width one none).
          expect(displayWidth(line)).toBeLessThanOrEqual(Math.max(2, width));
        },
      ),
      RUNS,
    );
  });

  it('tenants list and use: any account, any tenant entry', async () => {
    await fc.assert(
      fc.asyncProperty(anyRecord, fc.array(anyRecord, { maxLength: 4 }), async (account, entries) => {
        for (const answer of [account, { tenants: entries }]) {
          const tenants = tenantsOf(answer);
          for (const width of WIDTHS) {
            const out = capture();
            const writer = createListWriter(out.sink, terminal('table', width), TENANT_COLUMNS);
            await writer.writeMany(tenants.map((tenant) => listedTenant(tenant, '1')));
            await writer.end();
            expectSafe(out.text());
          }
          findTenant(tenants, '1');
          findTenant(tenants, 'northside');
          for (const tenant of tenants) expect(typeof describeTenant(tenant)).toBe('string');
        }
      }),
      RUNS,
    );
  });
});

describe('named hostile values', () => {
  const HOSTILE = JSON.parse(
    '{"id":{"toString":1},"first_name":{"toString":1,"valueOf":1},"last_name":{"valueOf":1},"email":"\\u001b]2;x\\u0007",' +
      '"created_at":{"toJSON":1},"customer":{"then":1,"id":{"constructor":1},"is_lead_stage":true,"lead_id":{"toString":1}},' +
      '"status":{"__proto__":{"a":1}},"body":[{"toString":1}],"sender_type":{"toString":1},"sender_id":{"valueOf":1},' +
      '"conversation_id":{"toString":1},"media_type":{"toString":1},"slug":null,"name":{"toString":1},"big":1e400}',
  ) as Record<string, unknown>;

  it.each(COLUMN_SETS)('a %s table of a record whose fields are {"toString":1}', async (_, columns) => {
    const { text: table } = renderTable([HOSTILE], columns, { colour: false, width: 400 });
    expectSafe(table);
    expect(table).toContain('{"toString":1}');
  });

  it('the chat line shows such fields as JSON', () => {
    const line = humanLine({ kind: 'created', source: 'rest', data: HOSTILE }, view(500));
    expect(line).toContain('#{"toString":1}');
    // The sender ({"toString":1} {"valueOf":1}) is longer than its column: cut there, the columns after it aligned.
    expect(line).toContain('  {"toString":1…  ');
    expectSafe(line);
  });

  it('nesting as deep as the API allows (512) renders everywhere', async () => {
    const deepObject = JSON.parse(`${'{"a":'.repeat(511)}{"toString":1}${'}'.repeat(511)}`) as unknown;
    const deepArray = JSON.parse(`${'['.repeat(512)}${']'.repeat(512)}`) as unknown;
    for (const value of [deepObject, deepArray]) {
      const record = { id: 1, value, body: value, first_name: value };
      for (const format of ['table', 'csv'] as const) {
        const out = capture();
        await writeResource(out.sink, terminal(format, 80), record);
        expectSafe(out.text());
      }
      expectSafe(renderTable([record], CUSTOMER_COLUMNS, { colour: false, width: 40 }).text);
      expectSafe(humanLine({ kind: 'created', source: 'realtime', data: record }, view(80)));
    }
  });
});
