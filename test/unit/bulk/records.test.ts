// The bulk record reader at its edges: byte order marks, repeated CSV columns, records past the size limit, and keys
// that mean something to JavaScript (`__proto__`, `constructor`...), which must stay plain data.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { applySet } from '../../../src/cli/body-input.js';
import { MAX_RECORD_BYTES, readRecords } from '../../../src/core/bulk/records.js';
import { UsageError } from '../../../src/core/errors.js';

async function collect(chunks: (string | Buffer)[], format: 'csv' | 'ndjson') {
  const out = [];
  for await (const record of readRecords(Readable.from(chunks), format, 'f')) out.push(record);
  return out;
}

/** The refusal of `chunks`, which must be a usage error (exit 2) and nothing else. */
async function refusal(chunks: (string | Buffer)[], format: 'csv' | 'ndjson'): Promise<string> {
  const error = await collect(chunks, format).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as Error).message;
}

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

describe('byte order marks', () => {
  it('NDJSON with a UTF-8 BOM is read, and the BOM is not part of the first key', async () => {
    const rows = await collect(['\uFEFF{"first_name":"Zoë"}\n{"first_name":"B"}\n'], 'ndjson');
    expect(rows.map((r) => [r.line, JSON.stringify(r.record)])).toEqual([
      [1, '{"first_name":"Zoë"}'],
      [2, '{"first_name":"B"}'],
    ]);
  });

  it('the BOM split across chunks, and CRLF line ends, change nothing', async () => {
    const bytes = Buffer.from('\uFEFF{"a":1}\r\n{"a":2}\r\n');
    const rows = await collect([bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2)], 'ndjson');
    expect(rows.map((r) => [r.line, JSON.stringify(r.record)])).toEqual([
      [1, '{"a":1}'],
      [2, '{"a":2}'],
    ]);
  });

  it('a BOM anywhere but the start is not dropped: that line is refused', async () => {
    expect(await refusal(['{"a":1}\n\uFEFF{"a":2}\n'], 'ndjson')).toMatch(/^f:2: not valid JSON/);
  });
});

describe('CSV columns', () => {
  it('a column given twice is refused naming it, at line 1', async () => {
    expect(await refusal(['first_name,email,first_name\nA,a@x,B\n'], 'csv')).toBe(
      'f:1: the column "first_name" is given twice',
    );
  });

  it('after a BOM, and when only the BOM tells them apart, too', async () => {
    expect(await refusal(['\uFEFFa,"a"\n1,2\n'], 'csv')).toBe('f:1: the column "a" is given twice');
  });

  it('distinct columns that differ only in case are distinct names', async () => {
    const [row] = await collect(['a,A\n1,2\n'], 'csv');
    expect(JSON.stringify(row?.record)).toBe('{"a":"1","A":"2"}');
  });
});

describe('the size of a record', () => {
  const over = 'x'.repeat(MAX_RECORD_BYTES + 1);
  const at = 'x'.repeat(MAX_RECORD_BYTES - '{"a":""}'.length);

  it('NDJSON: a line of exactly the limit is read; one byte more is refused with its line', async () => {
    expect(await collect([`{"a":1}\n{"a":"${at}"}\n`], 'ndjson')).toHaveLength(2);
    expect(await refusal([`{"a":1}\n\n{"a":"${at}x"}\n`], 'ndjson')).toBe(
      'f:3: the line is longer than 1 MiB, the most a record may be',
    );
  });

  it('NDJSON: a file with no line break at all is refused after the limit, whatever follows', async () => {
    const endless = Readable.from(
      (function* () {
        for (let i = 0; ; i++) yield Buffer.alloc(64 * 1024, 0x20);
      })(),
    );
    const error = await (async () => {
      for await (const _ of readRecords(endless, 'ndjson', 'f')) void _;
    })().catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('f:1: the line is longer than 1 MiB, the most a record may be');
  });

  it('CSV: a record of one field past the limit is refused with its line', async () => {
    expect(await refusal([`a,b\n1,2\n3,${over}\n`], 'csv')).toBe(
      'f:3: the record is longer than 1 MiB, the most a record may be',
    );
  });

  it('CSV: a quoted field spanning many lines past the limit is refused at the line it starts on', async () => {
    const lines = Array.from({ length: 40_000 }, () => 'y'.repeat(30)).join('\n');
    expect(await refusal([`a,b\n1,2\n\n4,"${lines}"\n5,6\n`], 'csv')).toBe(
      'f:4: the record is longer than 1 MiB, the most a record may be',
    );
  });

  it('CSV: a record just under the limit is read', async () => {
    const [row] = await collect([`a\n${'z'.repeat(MAX_RECORD_BYTES - 10)}\n`], 'csv');
    expect(row?.line).toBe(2);
  });
});

describe('keys are data', () => {
  it.each(NAMES)('NDJSON key %s is an own key of the record, sent as given', async (name) => {
    const [row] = await collect([`{"${name}":"x","n":{"${name}":1}}\n`], 'ndjson');
    const text = JSON.stringify(row?.record);
    expect(text).toBe(`{"${name}":"x","n":{"${name}":1}}`);
  });

  it.each(NAMES)('CSV column %s is an own key of the record, sent as given', async (name) => {
    const [row] = await collect([`first_name,${name}\nA,x\n`], 'csv');
    expect(JSON.stringify(row?.record)).toBe(`{"first_name":"A","${name}":"x"}`);
  });

  it.each(NAMES)('--set %s=... sets an own key, once, at any depth', (name) => {
    const body = {};
    applySet(body, `${name}=x`);
    applySet(body, `nested.${name}:={"y":1}`);
    applySet(body, `${name}2.${name}.z=1`);
    expect(JSON.stringify(body)).toBe(
      `{"${name}":"x","nested":{"${name}":{"y":1}},"${name}2":{"${name}":{"z":"1"}}}`,
    );
  });

  it('--set __proto__.x or constructor.prototype.x never touches Object.prototype', () => {
    const body = {};
    applySet(body, '__proto__.polluted=yes');
    applySet(body, '__proto__:={"polluted":"yes"}');
    applySet(body, 'constructor.prototype.polluted=yes');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(JSON.stringify(body)).toBe(
      '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}',
    );
  });

  it('--set over a key an NDJSON record already has replaces it, still once', async () => {
    const [row] = await collect(['{"__proto__":"a","toString":"b"}\n'], 'ndjson');
    const record = structuredClone(row?.record) as Record<string, unknown>;
    applySet(record, '__proto__=c');
    applySet(record, 'toString.x=d');
    expect(JSON.stringify(record)).toBe('{"__proto__":"c","toString":{"x":"d"}}');
  });
});
