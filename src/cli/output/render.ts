// The one place that turns records into table, json, ndjson or csv, honouring --fields.
import type { OutputFormat } from '../../core/config/keys.js';
import { columnsFor, flatten, pickFields } from './fields.js';
import { recordMarks } from './marks.js';
import { type Column, renderFieldTable, renderTable } from './table.js';

/** Where data goes: stdout, with backpressure. */
export interface Sink {
  write(text: string): Promise<void>;
}

export interface OutputSpec {
  format: OutputFormat;
  /** The user chose the format (flag, CLINIC_OUTPUT or profile); else it is the default. */
  chosen?: boolean;
  fields?: string[];
  /** --csv-raw: cells exactly as they are, formulas included, even on a terminal. */
  csvRaw?: boolean;
  /** stdout is a terminal: CSV is made safe to show, like a table (JSON and NDJSON stay exact data). */
  terminal?: boolean;
  colour: boolean;
  width: number;
}

export interface ListWriter<T = unknown> {
  write(item: T): Promise<void>;
  /** A page of records in one write: a page's objects die young, and memory stays flat however long the export. */
  writeMany(items: readonly T[]): Promise<void>;
  /** Closes the output (a JSON array gets its `]`), also after an interruption, so partial output stays valid. */
  end(): Promise<void>;
  readonly count: number;
}

/** A list shown as it happens (a watch, a tail): in the table format a line per item, as it comes. */
export interface LiveLines<T> {
  /** The human line of an item, without its newline. */
  line(item: T): string;
  /** The item as a record in every other format (default: the item itself). */
  record?(item: T): unknown;
}

const indent = (text: string) => text.replace(/\n/g, '\n  ');

function shape(record: unknown, spec: OutputSpec): unknown {
  return spec.fields ? pickFields(record, spec.fields) : record;
}

/**
 * The one list writer: writes a list record by record; only the table waits for all records to size its columns
 * (a live list writes a line per item instead).
 */
export function createListWriter<T = unknown>(
  sink: Sink,
  spec: OutputSpec,
  columns: Column[],
  live?: LiveLines<T>,
): ListWriter<T> {
  if (live && spec.format === 'table') return lineWriter(sink, live);
  const writer = recordWriter(sink, spec, columns);
  const toRecord = live?.record;
  if (!toRecord) return writer as ListWriter<T>;
  return {
    writeMany: (items) => writer.writeMany(items.map((item) => toRecord(item))),
    write: (item) => writer.write(toRecord(item)),
    end: () => writer.end(),
    get count() {
      return writer.count;
    },
  };
}

function lineWriter<T>(sink: Sink, live: LiveLines<T>): ListWriter<T> {
  let count = 0;
  const writeMany = async (items: readonly T[]) => {
    count += items.length;
    await sink.write(items.map((item) => `${live.line(item)}\n`).join(''));
  };
  return {
    writeMany,
    write: (item) => writeMany([item]),
    end: async () => {},
    get count() {
      return count;
    },
  };
}

function recordWriter(sink: Sink, spec: OutputSpec, columns: Column[]): ListWriter {
  let count = 0;
  let csvColumns: string[] | undefined;
  let ended = false;
  const buffered: unknown[] = [];

  let csv: typeof import('./csv.js') | undefined;
  /** The text of one record (table rows are kept for the end: a table needs every row to size its columns). */
  const format = (record: unknown): string => {
    count++;
    if (spec.format === 'json')
      return `${count === 1 ? '[\n  ' : ',\n  '}${indent(JSON.stringify(shape(record, spec), null, 2))}`;
    if (spec.format === 'ndjson') return `${JSON.stringify(shape(record, spec))}\n`;
    buffered.push(record);
    return '';
  };
  const writeMany = async (records: readonly unknown[]) => {
    if (spec.format === 'csv') {
      csv ??= await import('./csv.js');
      if (records.length === 0) return;
      let header = '';
      if (!csvColumns) {
        csvColumns = columnsFor(records[0], spec.fields);
        header = csv.csvRow(csvColumns, spec.csvRaw, spec.terminal);
      }
      count += records.length;
      return sink.write(header + csv.csvRecords(records, csvColumns, spec.csvRaw, spec.terminal));
    }
    let text = '';
    for (const record of records) text += format(record);
    await sink.write(text);
  };
  const write = (record: unknown) => writeMany([record]);

  const end = async () => {
    if (ended) return;
    ended = true;
    if (spec.format === 'json') await sink.write(count === 0 ? '[]\n' : '\n]\n');
    if (spec.format === 'csv' && count === 0 && spec.fields) {
      // No record to take columns from: the header of the fields asked for keeps the file well-formed.
      const { csvRow } = await import('./csv.js');
      await sink.write(csvRow(spec.fields, spec.csvRaw, spec.terminal));
    }
    if (spec.format === 'table') {
      const tableColumns = spec.fields ? spec.fields.map((path) => ({ header: path, path })) : columns;
      await sink.write(await renderTable(buffered, tableColumns, spec));
    }
  };

  return {
    write,
    writeMany,
    end,
    get count() {
      return count;
    },
  };
}

/** The one record writer: its object in json/ndjson, one row in csv, a field/value table otherwise. */
export async function writeResource(sink: Sink, spec: OutputSpec, record: unknown): Promise<void> {
  switch (spec.format) {
    case 'json':
      return sink.write(`${JSON.stringify(shape(record, spec), null, 2)}\n`);
    case 'ndjson':
      return sink.write(`${JSON.stringify(shape(record, spec))}\n`);
    case 'csv': {
      const { csvRecord, csvRow } = await import('./csv.js');
      const columns = columnsFor(record, spec.fields);
      const { csvRaw, terminal } = spec;
      return sink.write(csvRow(columns, csvRaw, terminal) + csvRecord(record, columns, csvRaw, terminal));
    }
    case 'table':
      return sink.write(
        await renderFieldTable(Object.entries(flatten(shape(record, spec))), spec, recordMarks(record)),
      );
  }
}

/**
 * Runs `produce` (which writes records) and closes the writer. After a failure the writer is closed only when
 * records were written, so partial output stays valid while a failed first page prints nothing at all.
 */
export async function writeAllOrNothing<T>(
  writer: ListWriter<T>,
  produce: () => Promise<void>,
): Promise<void> {
  try {
    await produce();
  } catch (error) {
    if (writer.count > 0) await writer.end();
    throw error;
  }
  await writer.end();
}
