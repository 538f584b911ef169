// Tables that fit the terminal: no line wider than it, identifying and state values never cut, low-priority columns
// shrink and drop first (named once), a column empty in every row left out, --wide showing everything, one header case.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ColumnNeeds, fitColumns, frameWidth } from '../../../src/cli/output/fit.js';
import { createListWriter, type OutputSpec } from '../../../src/cli/output/render.js';
import { renderFieldTable } from '../../../src/cli/output/record-table.js';
import { type Column, renderTable } from '../../../src/cli/output/table.js';
import { HumanTimes } from '../../../src/cli/output/time.js';
import { SETTING_COLUMNS } from '../../../src/commands/config/show.js';
import { MESSAGE_COLUMNS } from '../../../src/commands/conversations/messages.js';
import { CUSTOMER_COLUMNS } from '../../../src/commands/customers/columns.js';
import { ERASURE_COLUMNS } from '../../../src/commands/erasure/columns.js';
import { useInProcess } from '../../helpers/in-process.js';
import { queueReplies } from '../../helpers/mock-api.js';
import { stringSink } from '../../helpers/sink.js';

/** A column's needs; a kept one's values all about as wide (its minimum its natural width) unless `min` says. */
const need = (natural: number, more: Partial<ColumnNeeds> = {}): ColumnNeeds => ({
  natural,
  keep: false,
  priority: 0,
  min: more.keep ? natural : 8,
  ...more,
});
const total = (widths: (number | undefined)[]) => {
  const shown = widths.filter((w): w is number => w !== undefined);
  return shown.reduce((sum, w) => sum + w, 0) + frameWidth(shown.length);
};
/** Lines of a rendered table (box-drawing characters and ASCII take one cell each). */
const lines = (text: string) => text.trimEnd().split('\n');
const cells = (line: string) => [...line].length;

describe('fitColumns', () => {
  it('gives every column its natural width when the table fits', () => {
    expect(fitColumns([need(5), need(10)], 80)).toEqual([5, 10]);
  });

  it('shrinks the lowest priority first, never a kept column', () => {
    const widths = fitColumns(
      [need(10, { keep: true }), need(30, { priority: 2 }), need(30, { priority: 1 })],
      60,
    );
    expect(total(widths)).toBe(60);
    expect(widths[0]).toBe(10);
    expect(widths[1]).toBe(30);
    expect(widths[2]).toBe(30 - (10 + 30 + 30 + frameWidth(3) - 60));
  });

  it('drops the lowest priority (the rightmost of equals) when even the minimums do not fit', () => {
    const widths = fitColumns(
      [
        need(20, { keep: true }),
        need(16, { min: 16, priority: 3 }),
        need(16, { min: 16 }),
        need(16, { min: 16 }),
      ],
      65,
    );
    expect(widths).toEqual([20, 16, 16, undefined]);
  });

  it('a column whose cells wrap shrinks to its minimum before any column is dropped, and is dropped last', () => {
    const columns = [
      need(10, { keep: true }),
      need(40, { wrap: true, priority: 9, min: 8 }),
      need(7, { priority: 1 }),
    ];
    expect(fitColumns(columns, 60)).toEqual([10, 60 - 10 - 7 - frameWidth(3), 7]);
    expect(fitColumns(columns, 30)).toEqual([10, 30 - 10 - frameWidth(2), undefined]);
  });

  it('narrows a kept column wider than the terminal (its values wrap) rather than overflow', () => {
    expect(fitColumns([need(90, { keep: true }), need(10)], 40)).toEqual([40 - frameWidth(1), undefined]);
  });

  it('narrows a kept column that wraps to the width most of its values need before anything else gives way', () => {
    // One long email among short ones: it wraps, and the names stay.
    const columns = [
      need(4, { keep: true }),
      need(82, { keep: true, wrap: true, min: 25 }),
      need(20, { priority: 1 }),
    ];
    expect(fitColumns(columns, 80)).toEqual([4, 80 - 4 - 20 - frameWidth(3), 20]);
    // A status is shown whole: the other column goes first.
    const statuses = [
      need(4, { keep: true }),
      need(20, { keep: true, min: 10 }),
      need(40, { priority: 1, min: 30 }),
    ];
    expect(fitColumns(statuses, 60)).toEqual([4, 20, undefined]);
  });

  it('property: nothing wider than the width; kept columns never dropped nor cut, narrowed last unless they wrap; the lowest priority gives way first', () => {
    const column = fc.record({
      natural: fc.integer({ min: 1, max: 80 }),
      keep: fc.boolean(),
      priority: fc.integer({ min: -3, max: 9 }),
      min: fc.integer({ min: 1, max: 20 }),
      wrap: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(column, { minLength: 1, maxLength: 9 }),
        fc.integer({ min: 10, max: 240 }),
        (columns, width) => {
          const widths = fitColumns(columns, width);
          const staying = columns.filter((c) => c.keep).length;
          // A cell each is all the kept columns need.
          if (frameWidth(staying) + staying <= width) expect(total(widths)).toBeLessThanOrEqual(width);
          const floor = (c: ColumnNeeds) => (c.keep && !c.wrap ? c.natural : Math.min(c.natural, c.min));
          const atFloorOrAbove = columns.every(
            (c, i) => widths[i] === undefined || (widths[i] as number) >= floor(c),
          );
          columns.forEach((c, i) => {
            const w = widths[i];
            if (c.keep) expect(w).toBeDefined();
            if (w !== undefined) expect(w).toBeLessThanOrEqual(c.natural);
            // Nothing was left out that would have fitted, at its minimum, beside what is shown.
            if (w === undefined) expect(total(widths) + floor(c) + 3).toBeGreaterThan(width);
            // A kept column narrows (below the width most of its values need, if it wraps) only when nothing else
            // has more to give.
            else if (c.keep && w < floor(c))
              columns.forEach((d, j) => {
                if (!d.keep && widths[j] !== undefined) expect(widths[j]).toBeLessThanOrEqual(floor(d));
              });
            // A column is cut only once every lower-priority one shown is at its minimum (a column that wraps
            // loses nothing by narrowing: it narrows first, whatever its priority), unless the columns that stay
            // needed every one of them narrower still.
            else if (!c.keep && !c.wrap && w < c.natural && total(widths) <= width && atFloorOrAbove)
              columns.forEach((d, j) => {
                if (!d.keep && !d.wrap && d.priority < c.priority && widths[j] !== undefined)
                  expect(widths[j]).toBe(floor(d));
              });
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});

const word = fc.stringMatching(/^[a-z0-9@._-]{1,24}$/);
const text = fc.array(word, { minLength: 0, maxLength: 5 }).map((words) => words.join(' '));

describe('renderTable', () => {
  it('property: no line wider than the terminal and every kept value whole, at any width', async () => {
    const columns: Column[] = [
      { header: 'ID', path: 'id', keep: true },
      { header: 'STATUS', path: 'status', keep: true },
      { header: 'NAME', path: 'name', priority: 5, min: 10 },
      { header: 'NOTES', path: 'notes', priority: 1, wrap: true },
      { header: 'CITY', path: 'city', priority: 3 },
    ];
    const record = fc.record({
      status: fc.constantFrom('pending_verification', 'completed', 'failed'),
      name: text,
      notes: text,
      city: text,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 40, max: 200 }),
        async (drawn, width) => {
          const records = drawn.map((r, i) => ({ ...r, id: i + 1 }));
          const { text: table } = renderTable(records, columns, { colour: false, width });
          for (const line of lines(table)) expect(cells(line)).toBeLessThanOrEqual(width);
          for (const r of records) {
            const row = lines(table).find((line) => line.startsWith(`│ ${r.id} `)) ?? '';
            expect(row).toContain(` ${r.status} `);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  const erasure = (id: number, status: string, extra: object = {}) => ({
    id,
    status,
    customer_id: id + 100,
    created_at: '2025-11-22T00:00:00.000000Z',
    verified_at: status === 'pending_verification' ? null : '2025-11-22T01:00:00.000000Z',
    executed_at: status === 'completed' ? '2025-11-22T03:00:00.000000Z' : null,
    state_allows: { resend: status === 'pending_verification', cancel: status === 'pending_verification' },
    ...extra,
  });
  const requests = [
    erasure(1, 'pending_verification'),
    erasure(2, 'completed', {
      customer: { id: 102, first_name: 'Ada', last_name: 'Lovelace', is_lead_stage: true, lead_id: 9 },
    }),
  ];

  it('never cuts a status or a date, and names what it left out', async () => {
    for (const width of [60, 80]) {
      const { text: table, notShown } = renderTable(requests, ERASURE_COLUMNS, {
        colour: false,
        width,
      });
      expect(table).toContain(' pending_verification ');
      expect(table).not.toMatch(/\d{4}-\d{2}-\d{2}[^│]*…/);
      for (const line of lines(table)) expect(cells(line)).toBeLessThanOrEqual(width);
      expect(notShown.length).toBeGreaterThan(0);
      for (const name of notShown) expect(table).not.toContain(name.toUpperCase());
    }
  });

  it("a record's marks (masked, read-only) stay in view on 80 columns, wrapped inside their column", async () => {
    const customers = [
      {
        id: 1,
        first_name: 'Fatima',
        last_name: 'Andersen',
        email: 'fatima.andersen3@example.com',
        phone_number: '+44 7700 942579',
        created_at: '2026-06-26T14:09:00.000000Z',
      },
      {
        id: 6,
        first_name: null,
        last_name: null,
        email: null,
        phone_number: null,
        record_state: { is_read_only: true, reason_code: 'CUSTOMER_ERASED' },
        created_at: '2026-02-24T10:15:00.000000Z',
      },
      {
        id: 7,
        first_name: 'J***',
        last_name: 'D***',
        email: 'j***@example.com',
        is_masked: true,
        phone_number: null,
        created_at: '2026-02-24T10:15:00.000000Z',
      },
    ];
    const { text: table, notShown } = renderTable(customers, CUSTOMER_COLUMNS, {
      colour: false,
      width: 80,
    });
    for (const line of lines(table)) expect(cells(line)).toBeLessThanOrEqual(80);
    expect(notShown).not.toContain('note');
    const rowsOf = (id: number) => {
      const all = lines(table);
      const at = all.findIndex((line) => line.startsWith(`│ ${id} `));
      const rows = [all[at] ?? ''];
      for (const line of all.slice(at + 1))
        if (line.startsWith('│    ')) rows.push(line);
        else break;
      return rows.map((line) => line.split('│').at(-2)?.trim()).join(' ');
    };
    expect(rowsOf(6)).toBe('read-only: CUSTOMER_ERASED');
    expect(rowsOf(7)).toBe('masked');

    // Too narrow for the note beside the names and emails: each mark is a line below the table instead.
    for (const width of [40, 60]) {
      const narrow = renderTable(customers, CUSTOMER_COLUMNS, { colour: false, width });
      expect(narrow.notShown).not.toContain('note');
      expect(narrow.text).not.toContain('NOTE');
      const below = lines(narrow.text).filter((line) => !/^[┌│└]/.test(line));
      expect(below.join(' ').replace(/\s+/g, ' ')).toBe(
        'note on ID 6: read-only: CUSTOMER_ERASED note on ID 7: masked',
      );
      for (const line of lines(narrow.text)) expect(cells(line)).toBeLessThanOrEqual(width);
    }
  });

  it('config list: a value is never cut, it wraps; the source gives way first', async () => {
    const settings = [
      { key: 'base_url', value: 'http://127.0.0.1:44793/api', source: 'profile' },
      {
        key: 'realtime.auth_endpoint',
        value: 'http://127.0.0.1:44793/api/broadcasting/auth',
        source: 'profile',
      },
    ];
    for (const width of [40, 60, 80]) {
      const { text: table } = renderTable(settings, SETTING_COLUMNS, { colour: false, width });
      for (const line of lines(table)) expect(cells(line)).toBeLessThanOrEqual(width);
      expect(table).not.toContain('…');
      const values = lines(table)
        .slice(2)
        .map((line) => line.split('│')[2]?.trim())
        .join('');
      expect(values).toContain(settings[1]!.value);
      if (width >= 60) expect(table).toContain('SOURCE');
    }
  });

  it('a table of 150,000 rows, and a record of 150,000 fields, render (no stack overflow)', () => {
    const records = Array.from({ length: 150_000 }, (_, i) => ({ id: i, email: `p${i}@example.com` }));
    const { text } = renderTable(records, CUSTOMER_COLUMNS, { colour: false, width: 80 });
    expect(text.trimEnd().split('\n')).toHaveLength(150_000 + 3);
    const record = Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [`f${i}`, i]));
    expect(renderFieldTable(record, { colour: false, width: 80 }).split('\n').length).toBeGreaterThan(
      150_000,
    );
  });

  it('conversation messages at 80 columns keep the time and the sender; the body wraps, never cut', () => {
    const body = 'Hi, can I move my appointment to Friday? The morning would suit me best.';
    const messages = [1, 2, 3].map((id) => ({
      id,
      created_at: '2026-01-02T09:00:00Z',
      sender_type: 'customer',
      sender_id: 12,
      status: 'received',
      body,
    }));
    const { text, notShown } = renderTable(messages, MESSAGE_COLUMNS, {
      colour: false,
      width: 80,
      times: new HumanTimes(true),
    });
    expect(notShown).toEqual([]);
    expect(text).toContain('TIME');
    expect(text).toContain('customer 12');
    for (const line of lines(text)) expect(cells(line)).toBeLessThanOrEqual(80);
    const bodyOf = (at: number) =>
      lines(text)
        .slice(2 + at * 3, 5 + at * 3)
        .map((line) => line.split('│').at(-2)?.trim())
        .join(' ')
        .trim();
    expect(bodyOf(0)).toBe(body);
  });

  it('one long email among --fields columns wraps, and the names asked for stay', async () => {
    const out = stringSink();
    const records = [
      ...[1, 2, 3, 4, 5, 6].map((id) => ({
        id,
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: `ada${id}@example.com`,
      })),
      {
        id: 7,
        first_name: 'Max',
        last_name: 'Power',
        email: `${'extremely.long.address'.repeat(3)}@example.com`,
      },
    ];
    const writer = createListWriter(
      out,
      { format: 'table', fields: ['id', 'first_name', 'last_name', 'email'], width: 60, colour: false },
      [],
    );
    await writer.writeMany(records);
    await writer.end();
    expect(out.text).toContain('FIRST_NAME');
    expect(out.text).toContain('LAST_NAME');
    for (const line of lines(out.text)) expect(cells(line)).toBeLessThanOrEqual(60);
  });

  it('columns asked for with --fields stay before the marks, which go below the table', async () => {
    const out = stringSink();
    const records = [
      { id: 6, created_at: '2026-01-02T09:00:00Z', is_masked: true },
      { id: 7, created_at: '2026-01-03T09:00:00Z' },
    ];
    const writer = createListWriter(
      out,
      {
        format: 'table',
        fields: ['created_at', 'id'],
        width: 30,
        colour: false,
        times: new HumanTimes(true),
      },
      [],
    );
    await writer.writeMany(records);
    await writer.end();
    expect(out.text).toContain('CREATED_AT');
    expect(out.text).not.toContain('NOTE');
    expect(lines(out.text).at(-1)).toBe('note on ID 6: masked');
  });

  it('leaves out a column that is empty in every row, unless --wide', async () => {
    const columns: Column[] = [
      { header: 'ID', path: 'id', keep: true },
      { header: 'NOTE', path: 'nothing' },
    ];
    expect(renderTable([{ id: 1 }], columns, { colour: false, width: 80 }).text).not.toContain('NOTE');
    expect(renderTable([{ id: 1 }], columns, { colour: false, width: 80, wide: true }).text).toContain(
      'NOTE',
    );
  });

  it('the NOTE column is never narrower than reads as text: narrower, the notes go under the table', () => {
    const marked = [
      ...requests,
      erasure(3, 'completed', {
        customer: {
          id: 103,
          first_name: null,
          is_lead_stage: true,
          lead_id: 31,
          record_state: { is_read_only: true, reason_code: 'CUSTOMER_ERASED' },
        },
      }),
    ];
    let under = 0;
    for (let width = 60; width <= 170; width++) {
      const { text: table } = renderTable(marked, ERASURE_COLUMNS, { colour: false, width });
      const header = lines(table)[1]!;
      const note = header.split('│').find((cell) => cell.trim() === 'NOTE');
      if (note === undefined) {
        expect(table, `at ${width}`).toMatch(/^note on ID 3: /m);
        under++;
      } else expect(note.length - 2, `at ${width}`).toBeGreaterThanOrEqual(20);
    }
    expect(under).toBeGreaterThan(0);
    expect(under).toBeLessThan(110);
  });

  it('--wide shows every column in full, whatever the width', async () => {
    const { text: table, notShown } = renderTable(requests, ERASURE_COLUMNS, {
      colour: false,
      width: 40,
      wide: true,
    });
    expect(notShown).toEqual([]);
    for (const header of ['VERIFIED', 'EXECUTED', 'ALLOWS', 'NOTE', 'lead #9 Ada Lovelace'])
      expect(table).toContain(header);
    expect(table).not.toContain('…');
  });
});

describe('the list writer', () => {
  const spec = (more: Partial<OutputSpec>): OutputSpec => ({
    format: 'table',
    colour: false,
    width: 60,
    ...more,
  });

  it('headers are upper case with --fields as without', async () => {
    const sink = stringSink();
    const writer = createListWriter(sink, spec({ fields: ['id', 'record_state.reason_code'] }), []);
    await writer.write({ id: 1, record_state: { reason_code: 'CUSTOMER_ERASED' } });
    await writer.end();
    expect(sink.text).toContain('│ ID │ RECORD_STATE.REASON_CODE │');
  });

  it('--fields at 60 columns: a path too long for its column wraps at its dots, a state value is never cut', async () => {
    const sink = stringSink();
    const fields = ['id', 'first_name', 'record_state.reason_code', 'extra.a.b', 'phone_number'];
    const writer = createListWriter(sink, spec({ fields }), []);
    await writer.writeMany([
      {
        id: 1,
        first_name: 'Alexandrina-Josephine',
        record_state: { reason_code: 'CUSTOMER_ERASED' },
        extra: { a: { b: 'some longer nested value here' } },
        phone_number: '+44 7700 900123',
      },
    ]);
    await writer.end();
    const table = lines(sink.text);
    for (const line of table) expect(cells(line), line).toBeLessThanOrEqual(60);
    expect(sink.text).toContain('CUSTOMER_ERASED');
    // The header whole, over two lines of its column: nothing of it cut.
    const at = table.findIndex((line) => line.includes('RECORD_STATE.'));
    const column = table[at]!.split('│').findIndex((cell) => cell.includes('RECORD_STATE.'));
    expect(table[at + 1]!.split('│')[column]!.trim()).toBe('REASON_CODE');
    expect(sink.text).not.toMatch(/RECORD_S…|CUSTOMER…/);
  });

  it('names the columns left out once, on the note line, with the way to see them', async () => {
    const notes: string[] = [];
    const sink = stringSink();
    const writer = createListWriter(
      sink,
      spec({ width: 50, note: (line) => notes.push(line) }),
      ERASURE_COLUMNS,
    );
    await writer.writeMany([
      {
        id: 1,
        status: 'completed',
        customer_id: 3,
        created_at: '2025-11-22T00:00:00Z',
        verified_at: '2025-11-22T01:00:00Z',
        executed_at: '2025-11-22T02:00:00Z',
      },
    ]);
    await writer.end();
    expect(notes).toEqual([expect.stringMatching(/^not shown: [a-z, ]+ \(use --wide\)$/)]);
    expect(notes[0]).toContain('verified');
  });
});

describe('erasure list on a terminal of 100 columns', () => {
  const cli = useInProcess();
  const completed = {
    id: 4,
    status: 'completed',
    customer_id: 31,
    customer: {
      id: 31,
      first_name: 'Ada',
      last_name: 'Lovelace',
      is_lead_stage: true,
      lead_id: 9,
      record_state: { is_read_only: true, reason_code: 'CUSTOMER_ERASED' },
    },
    created_at: '2025-11-22T00:00:00.000000Z',
    verified_at: '2025-11-22T01:00:00.000000Z',
    executed_at: '2025-11-22T03:00:00.000000Z',
    state_allows: { resend: false, cancel: false, retry: false, certificate: true },
  };
  const list = (...flags: string[]) => {
    queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/data-erasure-requests\?/, [
      { status: 200, body: { data: [completed], meta: { current_page: 1, last_page: 1, total: 1 } } },
    ]);
    return cli.run(['erasure', 'list', ...flags], { tty: true, env: { TZ: 'Europe/Berlin' } });
  };

  it('names what it left out and the zone, once each on stderr; --quiet says neither', async () => {
    const shown = await list();
    expect(shown.code).toBe(0);
    // The note (a lead, erased) wraps in its column: it outranks the dates of later steps, which give way.
    expect(shown.stdout).toContain('│ 2025-11-22 01:00 │ certificate │ customer is a lead,     │');
    expect(shown.stdout).toContain('│ CUSTOMER_ERASED         │');
    expect(shown.stderr).toBe(
      'not shown: verified, executed (use --wide)\ntimes in Europe/Berlin (UTC+01:00)\n',
    );
    const quiet = await list('--quiet');
    expect(quiet.stdout).toBe(shown.stdout);
    expect(quiet.stderr).toBe('');
  });

  it('stdout a pipe, stderr the terminal (-o table | less): fitted to the terminal, the zone said', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/data-erasure-requests\?/, [
      { status: 200, body: { data: [completed], meta: { current_page: 1, last_page: 1, total: 1 } } },
    ]);
    // The terminal on stdin and stderr is 100 columns wide; stdout goes into a pipe.
    const piped = await cli.run(['erasure', 'list', '-o', 'table'], {
      terminal: true,
      env: { TZ: 'Europe/Berlin' },
    });
    expect(piped.code).toBe(0);
    const widest = Math.max(
      ...piped.stdout
        .trimEnd()
        .split('\n')
        .map((line) => [...line].length),
    );
    expect(widest).toBeLessThanOrEqual(100);
    expect(piped.stderr).toContain('times in Europe/Berlin (UTC+01:00)\n');
  });

  it('--wide leaves nothing out; --utc shows UTC and says so', async () => {
    const wide = await list('--wide');
    expect(wide.stdout).toContain('│ customer is a lead, customer read-only: CUSTOMER_ERASED │');
    expect(wide.stderr).toBe('times in Europe/Berlin (UTC+01:00)\n');
    const utc = await list('--utc');
    expect(utc.stdout).toContain('│ 2025-11-22 00:00 │');
    expect(utc.stderr).toContain('times in UTC\n');
  });
});
