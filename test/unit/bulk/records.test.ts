// The bulk record reader at its edges: byte order marks, text that is not UTF-8, repeated CSV columns, records past
// the size limit, CSV line numbers under every line end, and keys that mean something to JavaScript (`__proto__`,
// `constructor`...), which must stay plain data.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { applySet } from '../../../src/cli/body-input.js';
import { MAX_RECORD_BYTES, readRecords } from '../../../src/core/bulk/records.js';
import { CancelledError, UsageError } from '../../../src/core/errors.js';

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

/** `text` with these bytes where it says `%s`, each in turn. */
const withBytes = (text: string, ...sequences: number[][]) =>
  Buffer.concat(text.split('%s').flatMap((part, i) => [Buffer.from(part), Buffer.from(sequences[i] ?? [])]));

/** `bytes` one byte to a chunk: every character and line end is split between chunks. */
const byteByByte = (bytes: Buffer) => [...bytes].map((byte) => Buffer.from([byte]));

const NOT_UTF8 = 'not valid UTF-8: save the file as UTF-8 (e.g. iconv -f cp1252 -t utf-8)';

describe('text that is not UTF-8', () => {
  it('a Windows-1252 (Excel) CSV is refused at its first such line, not read as U+FFFD', async () => {
    const latin1 = Buffer.from('first_name,last_name\nAda,Lovelace\nJosé,Müller\n', 'latin1');
    expect(await refusal([latin1], 'csv')).toBe(`f:3: ${NOT_UTF8}`);
  });

  it('NDJSON too', async () => {
    const latin1 = Buffer.from('{"first_name":"Ada"}\n{"first_name":"José"}\n', 'latin1');
    expect(await refusal([latin1], 'ndjson')).toBe(`f:2: ${NOT_UTF8}`);
  });

  it.each([
    ['a Latin-1 é', [0xe9]],
    ['a lone continuation byte', [0x80]],
    ['a character cut short', [0xe2, 0x82]],
    ['an overlong /', [0xc0, 0xaf]],
    ['a UTF-16 surrogate', [0xed, 0xa0, 0x80]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['0xFF', [0xff]],
  ])('%s is refused at its line, in one chunk or byte by byte', async (_, sequence) => {
    const csv = withBytes('a,b\n1,2\n3,x%sy\n5,6\n', sequence);
    const ndjson = withBytes('{"a":1}\n\n{"a":"x%sy"}\n', sequence);
    expect(await refusal([csv], 'csv')).toBe(`f:3: ${NOT_UTF8}`);
    expect(await refusal(byteByByte(csv), 'csv')).toBe(`f:3: ${NOT_UTF8}`);
    expect(await refusal([ndjson], 'ndjson')).toBe(`f:3: ${NOT_UTF8}`);
    expect(await refusal(byteByByte(ndjson), 'ndjson')).toBe(`f:3: ${NOT_UTF8}`);
  });

  it.each(['\n', '\r\n', '\r'])('the line is counted across chunks with %j line ends', async (end) => {
    const csv = withBytes(['a,b', '"1', '2",3', '', '4,%s', ''].join(end), [0xe9]);
    for (const chunks of [[csv], byteByByte(csv), [csv.subarray(0, 9), csv.subarray(9)]])
      expect(await refusal(chunks, 'csv')).toBe(`f:5: ${NOT_UTF8}`);
  });

  it('a character cut short at the very end of the file is refused, with or without a last line end', async () => {
    expect(await refusal([withBytes('a,b\n1,2\n3,%s', [0xf0, 0x9f, 0x98])], 'csv')).toBe(`f:3: ${NOT_UTF8}`);
    expect(await refusal([withBytes('a,b\n1,2\n3,"%s', [0xc3])], 'csv')).toBe(`f:3: ${NOT_UTF8}`);
    expect(await refusal([withBytes('{"a":1}\n{"a":2}%s', [0xe2, 0x82])], 'ndjson')).toBe(`f:2: ${NOT_UTF8}`);
    expect(await refusal([withBytes('{"a":1}\n%s', [0xe2])], 'ndjson')).toBe(`f:2: ${NOT_UTF8}`);
  });

  it('a valid character split between chunks anywhere is read whole, after a BOM as well', async () => {
    const csv = Buffer.from('\uFEFFname,note\r\nZoë,€ 5 😀\r\n');
    for (let cut = 1; cut < csv.length; cut++) {
      const rows = await collect([csv.subarray(0, cut), csv.subarray(cut)], 'csv');
      expect(rows).toEqual([{ line: 2, record: { name: 'Zoë', note: '€ 5 😀' } }]);
    }
    expect(await collect(byteByByte(csv), 'csv')).toHaveLength(1);
    const ndjson = Buffer.from('\uFEFF{"name":"Zoë","note":"€ 5 😀 \uFFFD"}\n');
    const [row] = await collect(byteByByte(ndjson), 'ndjson');
    expect(JSON.stringify(row?.record)).toBe('{"name":"Zoë","note":"€ 5 😀 \uFFFD"}');
  });

  it('a bad byte in a later chunk, after a character split between chunks, names its own line', async () => {
    const euro = Buffer.from('€');
    const chunks = [
      Buffer.from('a,b\n1,'),
      euro.subarray(0, 2),
      Buffer.concat([euro.subarray(2), Buffer.from('\n2,3\n4,'), Buffer.from([0xe9]), Buffer.from('\n')]),
    ];
    expect(await refusal(chunks, 'csv')).toBe(`f:4: ${NOT_UTF8}`);
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

  it.each([
    [
      'semicolons (Excel where the decimal mark is a comma)',
      'first_name;last_name;email\nAda;L;a@x\n',
      'semicolons',
      'first_name;last_name;email',
    ],
    ['tabs', 'customer_id\trequest_reason\n3\tasked\n', 'tabs', 'customer_id\trequest_reason'],
  ])(
    'a file separated by %s is refused at its header, before anything is sent',
    async (_, text, by, header) => {
      expect(await refusal([text], 'csv')).toBe(
        `f:1: the header is one column, ${JSON.stringify(header)}: its fields are separated by ${by}, not commas; save the file as CSV with commas`,
      );
    },
  );

  it('a one-column file whose name holds neither is read as it is', async () => {
    const [row] = await collect(['customer_id\n3\n'], 'csv');
    expect(JSON.stringify(row?.record)).toBe('{"customer_id":"3"}');
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

describe('CSV line numbers under every line end', () => {
  // Written with `|` for the line end; each names the line the bad record starts on, as records are named.
  const refusals = [
    [
      'a row with too many fields, after a field with line breaks',
      'a,b|"A|X|Y",B|C,D,E|',
      5,
      'the row has 3 fields where the header has 2',
    ],
    [
      'a row with too many fields, after blank lines',
      'a,b|"A|X",B|||C,D,E|',
      6,
      'the row has 3 fields where the header has 2',
    ],
    [
      'a row with too many fields that spans lines',
      'a,b|"A|X",B|"P|Q",R,S|',
      4,
      'the row has 3 fields where the header has 2',
    ],
    ['text after a closing quote', 'a,b|"A|X",B|"P|Q"x,R|', 4, 'text after the closing " of a quoted field'],
    [
      'a quote inside a field',
      'a,b|"A|X",B|P,a"b|',
      4,
      'a " inside a field that is not quoted (quote the field, and write the " as "")',
    ],
    ['a quote never closed', 'a,b|"A|X",B|"P|Q,R|S|', 4, 'a quoted field is never closed (a " is missing)'],
  ] as const;

  describe.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('%s', (_, end) => {
    it.each(refusals)('%s', async (_, text, line, problem) => {
      expect(await refusal([text.replaceAll('|', end)], 'csv')).toBe(`f:${line}: ${problem}`);
    });

    it('records are named by the line they start on', async () => {
      const rows = await collect(['a,b|"A|X",B||"P|Q",R|S,T|'.replaceAll('|', end)], 'csv');
      expect(rows.map((row) => row.line)).toEqual([2, 5, 7]);
    });

    it('a record past the size limit, after a field with line breaks', async () => {
      const text = `a,b|"A|X",B|C,${'x'.repeat(MAX_RECORD_BYTES + 1)}|`.replaceAll('|', end);
      expect(await refusal([text], 'csv')).toBe(
        'f:4: the record is longer than 1 MiB, the most a record may be',
      );
    });
  });

  it('an interruption while reading is not taken for a CSV problem', async () => {
    const interrupted = (async function* () {
      yield Buffer.from('a,b\r\n"1\r\n2",3\r\n');
      throw new CancelledError('interrupted while reading the input: nothing was sent');
    })();
    const error = await (async () => {
      for await (const _ of readRecords(interrupted, 'csv', 'f')) void _;
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CancelledError);
  });
});
