// Records of a bulk input (NDJSON or CSV, in UTF-8), streamed with the line each starts on; a bad one stops the
// read with the file and line, or is told and skipped (BadRecordListener). Constant memory whatever the input's size: no line or record may be longer than
// MAX_RECORD_BYTES.
import { Readable, pipeline } from 'node:stream';
import { UsageError } from '../errors.js';
import { nestsDeeperThan, TOO_DEEP } from '../json-depth.js';
import { lazyRequire } from '../lazy-require.js';

const csvParse = lazyRequire<typeof import('csv-parse')>('csv-parse');
type CsvOptions = import('csv-parse').Options;

export type BulkFormat = 'ndjson' | 'csv';

/** The longest NDJSON line or CSV record: a longer one (a file with no line breaks) is refused, not buffered. */
export const MAX_RECORD_BYTES = 1024 * 1024;
const LIMIT_TEXT = `longer than ${MAX_RECORD_BYTES / 1024 / 1024} MiB, the most a record may be`;

export interface InputRecord {
  line: number;
  /** Null-prototype: every key of the input is an own data property, `__proto__` and `constructor` included. */
  record: Record<string, unknown>;
}

/** A refused input: names the file and, where there is one, the line. */
export class BulkInputError extends UsageError {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly problem: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${problem}`);
  }
}

/**
 * Told of each record that is bad on its own (not JSON, not an object, a CSV row of the wrong length), which the read
 * then skips. Without one, the first bad record ends the read. Whatever else is wrong with an input (not UTF-8, a
 * line too long, a quote never closed, a bad header) ends it either way: what follows cannot be read with certainty.
 */
export type BadRecordListener = (line: number, problem: string) => void;

/** The first bad record's refusal, or, told to `listener`, the record skipped. */
const badRecord =
  (name: string, listener: BadRecordListener | undefined) => (line: number, problem: string) => {
    if (!listener) throw new BulkInputError(name, line, problem);
    listener(line, problem);
  };

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

/** A copy of `value` whose objects have no prototype, so no key of the input means anything to JavaScript. */
function plainData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainData);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = Object.create(null);
  for (const [key, inner] of Object.entries(value)) copy[key] = plainData(inner);
  return copy;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const bytesOf = (chunk: Buffer | string) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk);

const CR = 0x0d;
const LF = 0x0a;
const NOT_UTF8 = 'not valid UTF-8: save the file as UTF-8 (e.g. iconv -f cp1252 -t utf-8)';

/**
 * The bytes of `input`, refused at the first sequence that is not UTF-8 (a Latin-1 or Windows-1252 export): decoded,
 * it would become U+FFFD unseen. Checked as it streams; a character split between chunks is read whole.
 */
async function* utf8Only(input: AsyncIterable<Buffer | string>, name: string): AsyncGenerator<Buffer> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1; // the line the next chunk starts on
  let recent = Buffer.alloc(0); // the last 3 bytes read: the decoder may hold a character begun in them
  for await (const chunk of input) {
    const bytes = bytesOf(chunk);
    const afterCR = recent.at(-1) === CR;
    try {
      decoder.decode(bytes, { stream: true });
    } catch {
      const checked = Buffer.concat([lastCharacter(recent), bytes]);
      const invalid = checked.subarray(0, refusedAt(checked));
      throw new BulkInputError(name, line + lineEnds(invalid, afterCR), NOT_UTF8);
    }
    line += lineEnds(bytes, afterCR);
    recent = Buffer.concat([recent, bytes.subarray(-3)]).subarray(-3);
    yield bytes;
  }
  try {
    decoder.decode(); // a character the file ends in the middle of
  } catch {
    throw new BulkInputError(name, line, NOT_UTF8);
  }
}

/** The end of `recent` from its last lead byte: a new decoder reads what follows as the stream's decoder does. */
function lastCharacter(recent: Buffer): Buffer {
  const start = recent.findLastIndex((byte) => byte < 0x80 || byte >= 0xc0);
  return start !== -1 && recent[start]! >= 0xc0 ? recent.subarray(start) : Buffer.alloc(0);
}

/** Where the first sequence that is not UTF-8 shows in `bytes` (which a new decoder can start on). */
function refusedAt(bytes: Buffer): number {
  const accepts = (length: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, length), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  // Every start of `bytes` longer than one refused is refused too: the shortest one ends where it shows.
  let [accepted, refused] = [0, bytes.length];
  while (refused - accepted > 1) {
    const middle = (accepted + refused) >>> 1;
    if (accepts(middle)) accepted = middle;
    else refused = middle;
  }
  return refused - 1;
}

/** The lines that end in `bytes`, at LF, CRLF or a lone CR as CSV reads them; `afterCR`: a CR came just before. */
function lineEnds(bytes: Buffer, afterCR: boolean): number {
  const crlf = occurrences(bytes, '\r\n') + (afterCR && bytes[0] === LF ? 1 : 0);
  return occurrences(bytes, '\n') + occurrences(bytes, '\r') - crlf;
}

function occurrences(bytes: Buffer, text: string): number {
  let count = 0;
  for (let at = bytes.indexOf(text); at !== -1; at = bytes.indexOf(text, at + text.length)) count++;
  return count;
}

/** The lines of `input` (split on LF, a CR before it dropped), each at most MAX_RECORD_BYTES long with its CR. */
async function* linesOf(
  input: AsyncIterable<Buffer | string>,
  name: string,
): AsyncGenerator<{ line: number; text: string }> {
  let parts: Buffer[] = [];
  let length = 0;
  let line = 1;
  const take = () => {
    const text = Buffer.concat(parts, length).toString('utf8');
    parts = [];
    length = 0;
    return { line: line++, text: text.endsWith('\r') ? text.slice(0, -1) : text };
  };
  for await (const chunk of input) {
    let bytes = bytesOf(chunk);
    for (;;) {
      const end = bytes.indexOf(0x0a);
      const piece = end === -1 ? bytes : bytes.subarray(0, end);
      length += piece.length;
      // Checked before the line ends: a file with no line break at all is refused after 1 MiB, not after all of it.
      if (length > MAX_RECORD_BYTES) throw new BulkInputError(name, line, `the line is ${LIMIT_TEXT}`);
      parts.push(piece);
      if (end === -1) break;
      yield take();
      bytes = bytes.subarray(end + 1);
    }
  }
  if (length > 0) yield take();
}

async function* ndjsonRecords(
  input: AsyncIterable<Buffer | string>,
  name: string,
  onBad?: BadRecordListener,
): AsyncGenerator<InputRecord> {
  const bad = badRecord(name, onBad);
  for await (const { line, text: raw } of linesOf(input, name)) {
    // A byte order mark before the first record is dropped, as CSV's is.
    const text = line === 1 && raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      bad(line, `not valid JSON (${(error as Error).message})`);
      continue;
    }
    if (!isObject(value)) bad(line, 'the record is not a JSON object');
    else if (nestsDeeperThan(value)) bad(line, `the record ${TOO_DEEP}`);
    else yield { line, record: plainData(value) as Record<string, unknown> };
  }
}

async function* csvRecords(
  input: AsyncIterable<Buffer | string>,
  name: string,
  onBad?: BadRecordListener,
): AsyncGenerator<InputRecord> {
  const bad = badRecord(name, onBad);
  // csv-parse's info.lines is where a record ends, but it counts a CRLF inside a quoted field as two lines:
  // undo that drift, then step back over the record's own line breaks to the line it starts on. Worked out as
  // csv-parse reads each record (on_record), ahead of this loop, so that an error knows where the last record ended.
  let drift = 0;
  const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
  let header: string[] | undefined;
  /** After the last record read: the line it ends on, and the blank lines skipped so far. */
  let last = { line: 0, emptyLines: 0 };
  const located = (record: string[], info: { lines: number; empty_lines: number }) => {
    const text = record.join('');
    const breaks = count(text, /\r\n|\r|\n/g);
    drift += count(text, /[\r\n]/g) - breaks;
    const line = info.lines - drift - breaks;
    last = { line: info.lines - drift, emptyLines: info.empty_lines };
    if (header !== undefined) return { line, record };
    header = checkedHeader(record, name, line);
    return null; // the header is no record
  };
  const parser = pipeline(
    Readable.from(input),
    csvParse().parse({
      skip_empty_lines: true,
      bom: true,
      relax_quotes: false,
      // A row of the wrong length is told below, as a bad record, and the rows after it still read.
      relax_column_count: true,
      max_record_size: MAX_RECORD_BYTES,
      // Rows as arrays: the records are built below, with no prototype, from a header checked for repeated names.
      on_record: located as unknown as CsvOptions['on_record'], // returns { line, record }, not a row
    }),
    () => undefined, // errors reach the loop below through the parser
  );
  try {
    for await (const { line, record } of parser as AsyncIterable<{ line: number; record: string[] }>) {
      const columns = (header as string[]).length;
      if (record.length !== columns) {
        bad(line, `the row has ${record.length} fields where the header has ${columns}`);
        continue;
      }
      const built: Record<string, unknown> = Object.create(null);
      (header as string[]).forEach((column, index) => (built[column] = record[index]));
      yield { line, record: built };
    }
  } catch (error) {
    // Only csv-parse's own errors are about the CSV (a refusal of ours, or a failure to read, goes on as it is).
    if (!(error instanceof csvParse().CsvError)) throw error;
    // The bad record starts after the last one read and the blank lines since: records are named by that line.
    // Not csv-parse's line, which counts a CRLF inside a quoted field as two (its messages' own lines go too).
    const line = last.line + 1 + (error.empty_lines as number) - last.emptyLines;
    if (error.code === 'CSV_MAX_RECORD_SIZE')
      throw new BulkInputError(name, line, `the record is ${LIMIT_TEXT}`);
    throw new BulkInputError(name, line, csvProblem(error));
  }
}

/** csv-parse's refusal in this CLI's words (its own, without its line numbers, for one not listed). */
function csvProblem(error: { code: string; message: string }): string {
  const counts = /expect (\d+), got (\d+)/.exec(error.message);
  switch (error.code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
    case 'CSV_RECORD_INCONSISTENT_COLUMNS':
      if (counts) return `the row has ${counts[2]} fields where the header has ${counts[1]}`;
      break;
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed (a " is missing)';
    case 'INVALID_OPENING_QUOTE':
      return 'a " inside a field that is not quoted (quote the field, and write the " as "")';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'text after the closing " of a quoted field';
  }
  return error.message.replace(/ (on|at) line \d+/, '');
}

/**
 * The column names, each given once: a repeated one would silently lose all but one of its values. A header of one
 * column holding `;` or a tab is another separator's file (Excel writes `;` where the decimal mark is a comma): read
 * with commas, every row would be one field and sent so, each refused by the server (422) at the rate limit's pace.
 */
function checkedHeader(columns: string[], name: string, line: number): string[] {
  const separator = columns.length === 1 ? [';', '\t'].find((char) => columns[0]!.includes(char)) : undefined;
  if (separator !== undefined)
    throw new BulkInputError(
      name,
      line,
      `the header is one column, ${JSON.stringify(columns[0])}: its fields are separated by ` +
        `${separator === ';' ? 'semicolons' : 'tabs'}, not commas; save the file as CSV with commas`,
    );
  const seen = new Set<string>();
  for (const column of columns) {
    if (seen.has(column))
      throw new BulkInputError(name, line, `the column ${JSON.stringify(column)} is given twice`);
    seen.add(column);
  }
  return columns;
}

/** Streams the records of `input` (a file's bytes, or stdin's); `name` is what messages call it. */
export function readRecords(
  input: AsyncIterable<Buffer | string>,
  format: BulkFormat,
  name: string,
  onBadRecord?: BadRecordListener,
): AsyncGenerator<InputRecord> {
  const text = utf8Only(input, name);
  return format === 'csv' ? csvRecords(text, name, onBadRecord) : ndjsonRecords(text, name, onBadRecord);
}
