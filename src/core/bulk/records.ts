// Records of a bulk input file (NDJSON or CSV), streamed with the line each starts on; a bad one stops the read
// with the file and line. Constant memory whatever the file's size.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { lazyRequire } from '../lazy-require.js';

const csvParse = lazyRequire<typeof import('csv-parse')>('csv-parse');

export type BulkFormat = 'ndjson' | 'csv';

export interface InputRecord {
  line: number;
  record: Record<string, unknown>;
}

/** A refused input: names the file and, where there is one, the line. */
export class BulkInputError extends UsageError {
  constructor(file: string, line: number | undefined, problem: string) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${problem}`);
  }
}

/** The format from `--format`, else the file's extension. */
export function formatOf(file: string, format: BulkFormat | undefined): BulkFormat {
  if (format) return format;
  if (/\.(ndjson|jsonl)$/i.test(file)) return 'ndjson';
  if (/\.csv$/i.test(file)) return 'csv';
  if (file === '-') throw new UsageError('--from - (standard input) needs --format ndjson or --format csv');
  throw new UsageError(
    `${file}: cannot tell the format from the extension: use .ndjson or .csv, or --format`,
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

async function* ndjsonRecords(input: Readable, name: string): AsyncGenerator<InputRecord> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new BulkInputError(name, line, `not valid JSON (${(error as Error).message})`);
    }
    if (!isObject(value)) throw new BulkInputError(name, line, 'the record is not a JSON object');
    yield { line, record: value };
  }
}

async function* csvRecords(input: Readable, name: string): AsyncGenerator<InputRecord> {
  const parser = input.pipe(
    csvParse().parse({ columns: true, info: true, skip_empty_lines: true, bom: true, relax_quotes: false }),
  );
  // csv-parse's info.lines is where a record ends, but it counts a CRLF inside a quoted field as two lines:
  // undo that drift, then step back over the record's own line breaks to the line it starts on.
  let drift = 0;
  const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
  try {
    for await (const { info, record } of parser as AsyncIterable<{
      info: { lines: number };
      record: Record<string, string>;
    }>) {
      const text = Object.values(record).join('');
      const breaks = count(text, /\r\n|\r|\n/g);
      drift += count(text, /[\r\n]/g) - breaks;
      yield { line: info.lines - drift - breaks, record };
    }
  } catch (error) {
    const { lines, message } = error as { lines?: number; message: string };
    if (error instanceof UsageError) throw error;
    throw new BulkInputError(name, lines, message.replace(/ on line \d+$/, ''));
  }
}

/** Streams the records of `input` (a file path's stream, or stdin); `name` is what messages call it. */
export function readRecords(input: Readable, format: BulkFormat, name: string): AsyncGenerator<InputRecord> {
  return format === 'csv' ? csvRecords(input, name) : ndjsonRecords(input, name);
}

/** Opens a file for reading, with the usage errors a user understands. */
export async function openInput(file: string): Promise<Readable> {
  let info;
  try {
    info = await stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BulkInputError(
      file,
      undefined,
      code === 'ENOENT' ? 'no such file' : `cannot read it (${code})`,
    );
  }
  if (info.isDirectory()) throw new BulkInputError(file, undefined, 'is a directory, not a file');
  try {
    await (await open(file, 'r')).close();
  } catch (error) {
    throw new BulkInputError(file, undefined, `cannot read it (${(error as NodeJS.ErrnoException).code})`);
  }
  const stream = createReadStream(file);
  return stream;
}
