// The one place that turns records into table, json, ndjson or csv, honouring --fields.
import type { OutputFormat } from '../../core/config/keys.js';
import { anyExact, exactJson, exactTwin } from '../../core/http/exact-numbers.js';
import type { CsvColumns } from './csv-columns.js';
import { FieldsSeen, pickFields } from './fields.js';
import { jsonForTerminal } from './sanitize.js';
import type { Column } from './table.js';
import { HumanTimes } from './time.js';

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
  /** stderr is a terminal: a person reads the notes, whatever stdout goes into. */
  watched?: boolean;
  /** The resource's declared fields (core/api/declared-fields.ts): CSV's first columns, also with no record. */
  declared?: readonly string[];
  /** A warning for stderr (a field the CSV leaves out, a --fields path no record has). */
  warn?: (line: string) => void;
  colour: boolean;
  width: number;
  /** --wide: tables show every column in full. */
  wide?: boolean;
  /** How human views show times (--utc), shared by the run so that the zone is said once. */
  times?: HumanTimes;
  /** A line for people on stderr (a column not shown, the time zone); --quiet silences it. */
  note?: (line: string) => void;
}

export interface ListWriter<T = unknown> {
  write(item: T): Promise<void>;
  /** A page of records in one write: a page's objects die young, and memory stays flat however long the export. */
  writeMany(items: readonly T[]): Promise<void>;
  /** Closes the output (a JSON array gets its `]`), also after an interruption, so partial output stays valid. */
  end(): Promise<void>;
  readonly count: number;
}

/** What a live line is drawn for: the terminal's width and how times read. */
export interface LineView {
  width: number;
  times: HumanTimes;
}

/** A list shown as it happens (a watch, a tail): in the table format a line per item, as it comes. */
export interface LiveLines<T> {
  /** The human line of an item, without its newline. */
  line(item: T, view: LineView): string;
  /** The item as a record in every other format (default: the item itself). */
  record?(item: T): unknown;
}

const indent = (text: string) => text.replace(/\n/g, '\n  ');

function shape(record: unknown, spec: OutputSpec): unknown {
  return spec.fields ? pickFields(record, spec.fields) : record;
}

/** The run's times (a spec made without them, in a test, gets its own). */
const timesOf = (spec: OutputSpec) => spec.times ?? new HumanTimes(false);

/**
 * What people are told after a human view: the columns left out, and (when a person watches stdout or stderr on a
 * terminal, even through `| less`) the zone of the times shown.
 */
function sayNotes(spec: OutputSpec, times: HumanTimes, notShown: string[] = []): void {
  if (notShown.length > 0) spec.note?.(`not shown: ${notShown.join(', ')} (use --wide)`);
  const zone = spec.terminal || spec.watched ? times.zoneNote() : undefined;
  if (zone !== undefined) spec.note?.(zone);
}

/**
 * A field named by --fields as a table column: identifying and state values (ids, statuses, codes, a record's
 * state) are never cut (emails wrap, as the customers table's do), the first named last.
 */
const fieldColumns = (fields: string[]): Column[] =>
  fields.map((path, index) => {
    const name = path.split('.').at(-1) ?? '';
    return {
      header: path,
      path,
      keep: /(^|_)(id|status|state|code|email)$/.test(name) || path.startsWith('record_state.'),
      wrap: /(^|_)email$/.test(name),
      priority: -index,
      asked: true,
    };
  });

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
  if (live && spec.format === 'table') return lineWriter(sink, spec, live);
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

function lineWriter<T>(sink: Sink, spec: OutputSpec, live: LiveLines<T>): ListWriter<T> {
  let count = 0;
  const view: LineView = { width: spec.width, times: timesOf(spec) };
  const writeMany = async (items: readonly T[]) => {
    count += items.length;
    const text = items.map((item) => `${live.line(item, view)}\n`).join('');
    sayNotes(spec, view.times); // the zone, before the first line that shows a time
    await sink.write(text);
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

/** A record as JSON (its fields as --fields shapes them); on a terminal, no control it would act on (escaped). */
const jsonOf = (record: unknown, spec: OutputSpec, space?: number): string => {
  const text = exactJson(shape(record, spec), space);
  return spec.terminal ? jsonForTerminal(text) : text;
};

function recordWriter(sink: Sink, spec: OutputSpec, columns: Column[]): ListWriter {
  let count = 0;
  let ended = false;
  const buffered: unknown[] = [];
  const seen = spec.fields && new FieldsSeen(spec.fields);
  const csv = spec.format === 'csv' ? csvWriter(spec, columns) : undefined;

  /** The text of one record (table rows are kept for the end: a table needs every row to size its columns). */
  const format = (record: unknown): string => {
    count++;
    seen?.see(record);
    if (spec.format === 'json') return `${count === 1 ? '[\n  ' : ',\n  '}${indent(jsonOf(record, spec, 2))}`;
    if (spec.format === 'ndjson') return `${jsonOf(record, spec)}\n`;
    buffered.push(record);
    return '';
  };
  const writeMany = async (served: readonly unknown[]) => {
    // The server's integers as it wrote them, where the answer held one JSON.parse rounds (exact-numbers.ts).
    const records = anyExact() ? served.map(exactTwin) : served;
    if (csv) {
      if (records.length === 0) return;
      count += records.length;
      for (const record of records) seen?.see(record);
      return sink.write(await csv.rows(records));
    }
    let text = '';
    for (const record of records) text += format(record);
    await sink.write(text);
  };
  const write = (record: unknown) => writeMany([record]);

  const end = async () => {
    if (ended) return;
    ended = true;
    if (count > 0) seen?.report(spec.warn);
    if (spec.format === 'json') await sink.write(count === 0 ? '[]\n' : '\n]\n');
    if (csv && count === 0) await sink.write(await csv.headerAlone());
    if (spec.format === 'table') {
      const times = timesOf(spec);
      const { renderTable } = await import('./table.js');
      const table = renderTable(buffered, spec.fields ? fieldColumns(spec.fields) : columns, {
        ...spec,
        times,
      });
      await sink.write(table.text);
      sayNotes(spec, times, table.notShown);
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

/**
 * CSV rows, the header first: the columns are --fields exactly, else the declared fields and every field of the
 * first page (csv-columns.ts); a field first seen later is named once on stderr, its values left out.
 */
function csvWriter(spec: OutputSpec, tableColumns: readonly Column[]) {
  let columns: string[] | undefined;
  let planned: CsvColumns | undefined;
  let modules: Promise<[typeof import('./csv.js'), typeof import('./csv-columns.js')]> | undefined;
  const load = () => (modules ??= Promise.all([import('./csv.js'), import('./csv-columns.js')]));
  const { csvRaw, terminal } = spec;
  return {
    async rows(records: readonly unknown[]): Promise<string> {
      const [csv, plan] = await load();
      let header = '';
      if (!columns) {
        if (!spec.fields) planned = new plan.CsvColumns(spec.declared ?? [], records);
        columns = spec.fields ?? (planned as CsvColumns).columns;
        header = csv.csvRow(columns, csvRaw, terminal);
      } else if (planned) reportUnheld(planned, records, spec.warn);
      return header + csv.csvRecords(records, columns, csvRaw, terminal);
    },
    /**
     * An empty result: the header alone, when the columns are known without a record: --fields, the declared fields,
     * else the fields the table shows (a resource whose fields the document does not show: appointments, channels).
     */
    async headerAlone(): Promise<string> {
      const shown = [...new Set(tableColumns.map((column) => column.path))];
      const known = spec.fields ?? (spec.declared?.length ? spec.declared : shown);
      if (!known?.length) {
        spec.warn?.(
          'note: no records, and no columns known for them: the CSV is empty (--fields names them)',
        );
        return '';
      }
      const [csv] = await load();
      return csv.csvRow([...known], csvRaw, terminal);
    },
  };
}

/** Names, once each, the fields of later records that no column holds. */
function reportUnheld(planned: CsvColumns, records: readonly unknown[], warn: OutputSpec['warn']): void {
  for (const record of records) {
    const unheld = planned.unheld(record);
    if (unheld.length > 0)
      warn?.(
        `warning: CSV: ${unheld.join(', ')} first seen after the first page: not in the columns, left out ` +
          '(pin the columns with --fields)',
      );
  }
}

/**
 * The one record writer: its object in json/ndjson, one row in csv, a field/value table otherwise. The table's code
 * loads for a table only, as CSV's does for CSV.
 */
export async function writeResource(sink: Sink, spec: OutputSpec, served: unknown): Promise<void> {
  const record = exactTwin(served);
  if (spec.fields) new FieldsSeen(spec.fields).see(record).report(spec.warn);
  switch (spec.format) {
    case 'json':
      return sink.write(`${jsonOf(record, spec, 2)}\n`);
    case 'ndjson':
      return sink.write(`${jsonOf(record, spec)}\n`);
    case 'csv':
      return sink.write(await csvWriter(spec, []).rows([record]));
    case 'table': {
      const times = timesOf(spec);
      const [{ renderFieldTable }, { recordMarks }] = await Promise.all([
        import('./record-table.js'),
        import('./marks.js'),
      ]);
      await sink.write(renderFieldTable(shape(record, spec), { ...spec, times }, recordMarks(record)));
      return sayNotes(spec, times);
    }
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
