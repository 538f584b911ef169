// json / ndjson / table list output, --fields shaping and the NOTE column for marked records.
import { describe, expect, it } from 'vitest';
import { flatten, parseFields, pickFields } from '../../../src/cli/output/fields.js';
import { recordMarks } from '../../../src/cli/output/marks.js';
import { decideFormat, formatAsTyped, refusedFormat } from '../../../src/cli/output/format.js';
import { createListWriter, type OutputSpec, writeResource } from '../../../src/cli/output/render.js';
import { type Column, renderTable } from '../../../src/cli/output/table.js';
import { UsageError } from '../../../src/core/errors.js';
import { stringSink } from '../../helpers/sink.js';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { useInProcess } from '../../helpers/in-process.js';
import { queueReplies } from '../../helpers/mock-api.js';

const spec = (format: OutputSpec['format'], fields?: string[], width = 120): OutputSpec => ({
  format,
  fields,
  colour: false,
  width,
});

async function listOf(
  format: OutputSpec['format'],
  records: unknown[],
  fields?: string[],
  columns: Column[] = [],
) {
  const sink = stringSink();
  const writer = createListWriter(sink, spec(format, fields), columns);
  for (const record of records) await writer.write(record);
  await writer.end();
  return { text: sink.text, count: writer.count };
}

describe('JSON on a terminal', () => {
  const HOSTILE = { id: '\u009b2J\u202eevil\u2028x\u007f' };

  it('keeps its data but none of the controls a terminal acts on (C1, bidi, separators, DEL): as escapes', async () => {
    for (const format of ['json', 'ndjson'] as const) {
      const sink = stringSink();
      const writer = createListWriter(sink, { ...spec(format), terminal: true }, []);
      await writer.write(HOSTILE);
      await writer.end();
      expect(sink.text, format).not.toMatch(/[\u007f-\u009f\u202e\u2028]/);
      expect(sink.text).toContain('\\u009b2J\\u202eevil\\u2028x\\u007f');
      const one = stringSink();
      await writeResource(one, { ...spec(format), terminal: true }, HOSTILE);
      expect(JSON.parse(one.text)).toEqual(HOSTILE);
    }
  });

  it('is written exactly as it is into a pipe', async () => {
    const sink = stringSink();
    await writeResource(sink, spec('ndjson'), HOSTILE);
    expect(sink.text).toBe(`${JSON.stringify(HOSTILE)}\n`);
  });
});

describe('json list', () => {
  it('is a valid JSON array of the records', async () => {
    const records = [
      { id: 1, name: 'a\nb' },
      { id: 2, tags: [1, { x: 2 }] },
    ];
    const { text, count } = await listOf('json', records);
    expect(JSON.parse(text)).toEqual(records);
    expect(count).toBe(2);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('is [] when empty', async () => {
    const { text } = await listOf('json', []);
    expect(text).toBe('[]\n');
    expect(JSON.parse(text)).toEqual([]);
  });

  it('stays valid when end() is called after one record (the interrupted case), and end() is idempotent', async () => {
    const sink = stringSink();
    const writer = createListWriter(sink, spec('json'), []);
    await writer.write({ id: 1 });
    await writer.end();
    await writer.end();
    expect(JSON.parse(sink.text)).toEqual([{ id: 1 }]);
  });

  it('is written incrementally: the first record is out before end()', async () => {
    const sink = stringSink();
    const writer = createListWriter(sink, spec('json'), []);
    await writer.write({ id: 1 });
    expect(sink.text).toContain('"id": 1');
  });

  it('--fields keeps nested objects nested', async () => {
    const { text } = await listOf('json', [{ a: 1, b: { c: 2, d: 3 }, e: 4 }], ['a', 'b.c']);
    expect(JSON.parse(text)).toEqual([{ a: 1, b: { c: 2 } }]);
  });
});

describe('ndjson list', () => {
  it('writes one JSON object per line', async () => {
    const records = [{ id: 1, text: 'multi\nline' }, { id: 2 }, { id: 3 }];
    const { text } = await listOf('ndjson', records);
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(3);
    expect(lines.map((line) => JSON.parse(line))).toEqual(records);
  });

  it('writes nothing for an empty list', async () => {
    expect((await listOf('ndjson', [])).text).toBe('');
  });

  it('--fields keeps nesting: {"b":{"c":..}}', async () => {
    const { text } = await listOf('ndjson', [{ a: 1, b: { c: 'x', d: 'y' } }], ['b.c']);
    expect(text).toBe('{"b":{"c":"x"}}\n');
  });

  it('--fields gives null for a missing path', async () => {
    const { text } = await listOf('ndjson', [{ a: 1 }], ['a', 'z.y']);
    expect(JSON.parse(text)).toEqual({ a: 1, z: { y: null } });
  });
});

describe('single resource', () => {
  it('json prints the object (shaped by --fields)', async () => {
    const sink = stringSink();
    await writeResource(sink, spec('json', ['id', 'b.c']), { id: 1, b: { c: 2, d: 3 } });
    expect(JSON.parse(sink.text)).toEqual({ id: 1, b: { c: 2 } });
  });

  it('table prints field/value rows with dotted names', async () => {
    const sink = stringSink();
    await writeResource(sink, spec('table'), { id: 1, record_state: { reason_code: 'CUSTOMER_ERASED' } });
    expect(sink.text).toContain('FIELD');
    expect(sink.text).toMatch(/record_state\.reason_code\s+│?\s*CUSTOMER_ERASED/);
  });
});

describe('table list', () => {
  const columns: Column[] = [
    { header: 'ID', path: 'id' },
    { header: 'NAME', path: 'name' },
  ];

  it('shows no NOTE column when no record is marked', async () => {
    const { text } = await listOf(
      'table',
      [
        { id: 1, name: 'Ada' },
        { id: 2, name: 'Grace' },
      ],
      undefined,
      columns,
    );
    expect(text).toContain('ID');
    expect(text).toContain('Grace');
    expect(text).not.toContain('NOTE');
  });

  it('shows a NOTE column with masked / read-only: CUSTOMER_ERASED when a record is marked', async () => {
    const { text } = await listOf(
      'table',
      [
        { id: 1, name: 'Ada' },
        { id: 2, name: 'G***', is_masked: true },
        { id: 3, name: 'Erased', record_state: { is_read_only: true, reason_code: 'CUSTOMER_ERASED' } },
      ],
      undefined,
      columns,
    );
    expect(text).toContain('NOTE');
    const lines = text.split('\n');
    expect(lines.find((line) => line.includes('G***'))).toContain('masked');
    expect(lines.find((line) => line.includes('Erased'))).toContain('read-only: CUSTOMER_ERASED');
    expect(lines.find((line) => line.includes('Ada'))).not.toMatch(/masked|read-only/);
  });

  it('uses --fields as the columns', async () => {
    const { text } = await listOf('table', [{ id: 1, name: 'Ada', rs: { x: 'deep' } }], ['rs.x'], columns);
    expect(text).toContain('RS.X');
    expect(text).toContain('deep');
    expect(text).not.toContain('Ada');
  });

  it('prints nothing for no records', async () => {
    expect((await listOf('table', [], undefined, columns)).text).toBe('');
  });

  it('keeps every line within the width, cutting long cells', async () => {
    const records = [{ id: 1, name: 'x'.repeat(200) }];
    const { text } = renderTable(records, columns, { colour: false, width: 40 });
    for (const line of text.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(40);
    expect(text).toContain('…');
  });

  it('does not colour without colour', async () => {
    const { text } = renderTable([{ id: 1, name: 'a', is_masked: true }], columns, {
      colour: false,
      width: 80,
    });
    // eslint-disable-next-line no-control-regex -- checking for ANSI escapes
    expect(text).not.toMatch(/\u001b\[/);
  });
});

describe('fields helpers', () => {
  it('parseFields splits, trims and rejects bad paths', () => {
    expect(parseFields(' id, record_state.reason_code ')).toEqual(['id', 'record_state.reason_code']);
    expect(() => parseFields('a..b')).toThrow(UsageError);
    expect(() => parseFields('a b')).toThrow(UsageError);
    expect(() => parseFields(',')).toThrow(UsageError);
  });

  it('pickFields nests dotted paths', () => {
    expect(pickFields({ a: { b: 1, c: 2 }, d: 3 }, ['a.b', 'd'])).toEqual({ a: { b: 1 }, d: 3 });
  });

  it('flatten makes dotted keys, keeps arrays and empty objects as values', () => {
    expect(flatten({ a: { b: { c: 1 } }, l: [1], e: {} })).toEqual({ 'a.b.c': 1, l: [1], e: {} });
  });

  it('recordMarks names masked and read-only records', () => {
    expect(
      recordMarks({
        is_masked: true,
        record_state: { is_read_only: true, reason_code: 'LEAD_NOT_ASSIGNED' },
      }),
    ).toBe('masked, read-only: LEAD_NOT_ASSIGNED');
    expect(recordMarks({ record_state: { is_read_only: true, reason_code: null } })).toBe('read-only');
    expect(recordMarks({ is_masked: false, record_state: { is_read_only: false } })).toBe('');
  });
});

describe('output in-process', () => {
  const cli = useInProcess();

  it('--force replaces a regular file only: never a FIFO or a device', async () => {
    const fifo = join(cli.dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const result = await cli.run(['ai-reports', 'pdf', '2', '-O', fifo, '--force']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('not a regular file');
    expect((await cli.run(['ai-reports', 'pdf', '2', '-O', '/dev/null', '--force'])).code).toBe(2);
    expect(cli.seen).toEqual([]);
  });

  it('unpaginated lists take --limit and --filter like any list', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/channels/, [
      { status: 200, body: { success: true, data: [{ id: 1 }, { id: 2 }, { id: 3 }] } },
    ]);
    const result = await cli.run([
      'channels',
      'list',
      '--limit',
      '2',
      '--filter',
      'type=sms',
      '-o',
      'ndjson',
    ]);
    expect(result).toMatchObject({ code: 0, stdout: '{"id":1}\n{"id":2}\n' });
    expect(cli.seen[0]?.path).toBe('/api/v1/channels?type=sms');
  });

  it('erasure watch -o json on an unknown id prints nothing to stdout', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', '/api/v1/data-erasure-requests/9', [
      { status: 404, body: { message: 'nope' } },
    ]);
    const result = await cli.run(['erasure', 'watch', '9', '-o', 'json']);
    expect(result).toMatchObject({ code: 5, stdout: '' });
  });
});

describe('a live list (a watch, a tail)', () => {
  const live = {
    line: (item: { n: number }) => `item ${item.n}`,
    record: (item: { n: number }) => ({ number: item.n }),
  };

  it('in the table format: a line per item as it comes, nothing at the end', async () => {
    const sink = stringSink();
    const writer = createListWriter(sink, spec('table'), [{ header: 'N', path: 'number' }], live);
    await writer.write({ n: 1 });
    expect(sink.text).toBe('item 1\n');
    await writer.writeMany([{ n: 2 }, { n: 3 }]);
    await writer.end();
    expect(sink.text).toBe('item 1\nitem 2\nitem 3\n');
    expect(writer.count).toBe(3);
  });

  it('in every other format: each item as its record, through the same writer as any list', async () => {
    for (const format of ['json', 'ndjson', 'csv'] as const) {
      const sink = stringSink();
      const writer = createListWriter(sink, spec(format), [], live);
      await writer.writeMany([{ n: 1 }, { n: 2 }]);
      await writer.end();
      expect(sink.text).toBe((await listOf(format, [{ number: 1 }, { number: 2 }])).text);
    }
  });
});

describe('the format decision', () => {
  it("the user's choice, else a table on a terminal and JSON elsewhere, else the command's own default", () => {
    expect(decideFormat('csv', true)).toBe('csv');
    expect(decideFormat(undefined, true)).toBe('table');
    expect(decideFormat(undefined, false)).toBe('json');
    expect(decideFormat(undefined, true, { otherwise: 'ndjson' })).toBe('ndjson');
    expect(decideFormat('table', false, { otherwise: 'ndjson' })).toBe('table');
  });

  it('narrowed to what the command writes: another choice becomes its first format', () => {
    const jsonData = { formats: ['json', 'ndjson'] } as const;
    expect(decideFormat('ndjson', true, jsonData)).toBe('ndjson');
    expect(decideFormat('csv', true, jsonData)).toBe('json');
    expect(decideFormat(undefined, true, jsonData)).toBe('json');
    expect(decideFormat(undefined, false, { formats: ['ndjson', 'table'] })).toBe('ndjson');
    expect(decideFormat(undefined, true, { formats: ['ndjson', 'table'] })).toBe('table');
  });

  it('as typed, before the command line parsed: the last flag, else CLINIC_OUTPUT; no unknown name', () => {
    expect(formatAsTyped(['x', '-o', 'csv', '--json'], {})).toBe('json');
    expect(formatAsTyped(['--output=ndjson'], { CLINIC_OUTPUT: 'csv' })).toBe('ndjson');
    expect(formatAsTyped(['-ondjson'], {})).toBe('ndjson');
    expect(formatAsTyped(['x'], { CLINIC_OUTPUT: 'csv' })).toBe('csv');
    expect(formatAsTyped(['-o', 'xml'], { CLINIC_OUTPUT: 'json' })).toBeUndefined();
  });
});

describe('an -o the command cannot write', () => {
  const pages = { formats: ['json', 'ndjson'] } as const;
  const tail = { formats: ['ndjson', 'table'] } as const;

  it('is refused when typed, naming what the command writes', () => {
    expect(refusedFormat('csv', pages)).toBe('-o csv: this command writes json or ndjson');
    expect(refusedFormat('table', pages)).toBe('-o table: this command writes json or ndjson');
    expect(refusedFormat('csv', tail)).toBe('-o csv: this command writes ndjson or table');
  });

  it('lets JSON and NDJSON stand in for each other, and passes what the command writes or anything to one that writes all', () => {
    expect(refusedFormat('json', tail)).toBeUndefined();
    expect(refusedFormat('ndjson', { formats: ['json'] })).toBeUndefined();
    expect(refusedFormat('table', tail)).toBeUndefined();
    expect(refusedFormat('csv', {})).toBeUndefined();
    expect(refusedFormat(undefined, pages)).toBeUndefined();
  });
});
