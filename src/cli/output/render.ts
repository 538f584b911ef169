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
  fields?: string[];
  /** --csv-raw: cells exactly as they are, formulas included, even on a terminal. */
  csvRaw?: boolean;
  /** stdout is a terminal: CSV is made safe to show, like a table (JSON and NDJSON stay exact data). */
  terminal?: boolean;
  colour: boolean;
  width: number;
}

export interface ListWriter {
  write(record: unknown): Promise<void>;
  /** A page of records in one write: a page's objects die young, and memory stays flat however long the export. */
  writeMany(records: readonly unknown[]): Promise<void>;
  /** Closes the output (a JSON array gets its `]`), also after an interruption, so partial output stays valid. */
  end(): Promise<void>;
  readonly count: number;
}

const indent = (text: string) => text.replace(/\n/g, '\n  ');

function shape(record: unknown, spec: OutputSpec): unknown {
  return spec.fields ? pickFields(record, spec.fields) : record;
}

/** Writes a list record by record; only the table waits for all records to size its columns. */
export function createListWriter(sink: Sink, spec: OutputSpec, columns: Column[]): ListWriter {
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

/** One resource: its object in json/ndjson, one row in csv, a field/value table otherwise. */
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
export async function writeAllOrNothing(writer: ListWriter, produce: () => Promise<void>): Promise<void> {
  try {
    await produce();
  } catch (error) {
    if (writer.count > 0) await writer.end();
    throw error;
  }
  await writer.end();
}
