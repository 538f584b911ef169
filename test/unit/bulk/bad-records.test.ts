// Every bad record of an input is found in the one check: told one by one and skipped by the reader, named (the first
// ten) and counted by checkInput; what ends the read comes after the records already found bad.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BulkInputError, readRecords } from '../../../src/core/bulk/records.js';
import { BAD_RECORDS_NAMED, BadRecordsError, checkInput } from '../../../src/core/bulk/run.js';
import { BULK_SCHEMAS } from '../../../src/core/bulk/schemas.js';

/** The records read from `text`, and the bad ones told. */
async function read(text: string, format: 'ndjson' | 'csv') {
  const bad: string[] = [];
  const lines: number[] = [];
  for await (const { line } of readRecords(Readable.from([text]), format, 'f', (at, problem) =>
    bad.push(`${at}: ${problem}`),
  ))
    lines.push(line);
  return { lines, bad };
}

/** checkInput of `text` as an erasure input (customer_id required): the error it refuses it with. */
async function refusal(text: string, format: 'ndjson' | 'csv') {
  const source = {
    name: 'f',
    regular: true,
    firstPass: () => Readable.from([Buffer.from(text)]),
    reread: () => Readable.from([Buffer.from(text)]),
    close: async () => undefined,
  };
  return checkInput({ schema: BULK_SCHEMAS.erasure, source, format, amend: (r) => r }).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('readRecords with a listener', () => {
  it('NDJSON: a line that is no JSON, no object or too deep is told and skipped; the rest are read', async () => {
    const deep = `${'['.repeat(600)}${']'.repeat(600)}`;
    const text = `{"a":1}\n{"a":\n[1]\n{"a":${deep}}\n\n{"a":2}\n`;
    const { lines, bad } = await read(text, 'ndjson');
    expect(lines).toEqual([1, 6]);
    expect(bad.map((told) => told.replace(/\(.*/, ''))).toEqual([
      '2: not valid JSON ',
      '3: the record is not a JSON object',
      expect.stringMatching(/^4: the record /),
    ]);
  });

  it('CSV: rows of the wrong length are told with the line each starts on, and the rows after them read', async () => {
    const text = 'a,b\n1,2\n3\n"4\nstill 4",5,6\n7,8\n';
    const { lines, bad } = await read(text, 'csv');
    expect(lines).toEqual([2, 6]);
    expect(bad).toEqual([
      '3: the row has 1 fields where the header has 2',
      '4: the row has 3 fields where the header has 2',
    ]);
  });

  it('what cannot be read past (a quote never closed) still ends the read', async () => {
    await expect(read('a,b\n1\n"2,3\n', 'csv')).rejects.toThrow('f:3: a quoted field is never closed');
  });
});

describe('checkInput', () => {
  it('one bad record: the one line it always was', async () => {
    const error = await refusal('{"customer_id":1}\n{"request_reason":"x"}\n', 'ndjson');
    expect(error).toBeInstanceOf(BulkInputError);
    expect(error).not.toBeInstanceOf(BadRecordsError);
    expect((error as Error).message).toBe('f:2: missing required field customer_id');
  });

  it(`names the first ${BAD_RECORDS_NAMED} in file order, whichever check found each, and counts the rest`, async () => {
    const rows = Array.from({ length: 25 }, (_, i) => (i % 2 ? '{"request_reason":"x"}' : 'x'));
    const error = (await refusal(`${rows.join('\n')}\n`, 'ndjson')) as BadRecordsError;
    expect(error).toBeInstanceOf(BadRecordsError);
    expect(error.listed).toHaveLength(BAD_RECORDS_NAMED);
    expect(error.listed[0]).toMatch(/^f:1: not valid JSON/);
    expect(error.listed[1]).toBe('f:2: missing required field customer_id');
    expect(error.message).toBe(
      'f: 25 bad records (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, and 15 more); nothing was sent',
    );
  });

  it('what ends the read after bad records is named after them', async () => {
    const error = (await refusal('customer_id,request_reason\n1\n2,C\n"3,E\n', 'csv')) as BadRecordsError;
    expect(error.listed).toEqual([
      'f:2: the row has 1 fields where the header has 2',
      'f:4: a quoted field is never closed (a " is missing)',
    ]);
    expect(error.message).toBe(
      'f: 2 bad records (lines 2); the check stopped at line 4, past which nothing was read; nothing was sent',
    );
  });

  it('what ends the read is named even past the first ten, and the count says the rest', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => `${i + 1}`); // a field missing: each row bad
    const error = (await refusal(
      `customer_id,request_reason\n${rows.join('\n')}\n"13,x\n`,
      'csv',
    )) as BadRecordsError;
    expect(error.listed).toHaveLength(BAD_RECORDS_NAMED + 1);
    expect(error.listed.at(-1)).toBe('f:14: a quoted field is never closed (a " is missing)');
    expect(error.message).toBe(
      'f: 13 bad records (lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, and 2 more); the check stopped at line 14, past ' +
        'which nothing was read; nothing was sent',
    );
  });

  it('a value echoed in a problem is cut to a few words (a field may hold a megabyte)', async () => {
    const huge = 'x'.repeat(1_000_000);
    const error = (await refusal(
      `{"customer_id":"${huge}"}\n{"customer_id":"${huge}"}\n`,
      'ndjson',
    )) as BadRecordsError;
    for (const line of error.listed) expect(line.length).toBeLessThan(200);
    expect(error.listed[0]).toMatch(
      /^f:1: customer_id must be a positive whole number, got "x+… \(1000002 characters\)$/,
    );
  });
});
