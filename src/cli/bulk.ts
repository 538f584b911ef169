// Runs a bulk command (`--from FILE`) for the user: checks, confirmation, journal lock, results on stdout,
// progress and a summary on stderr, and the exit code of the whole.
import {
  BadRecordsError,
  type BulkCounts,
  type BulkTarget,
  type CheckedInput,
  checkInput,
  earlierRun,
  openJournal,
  plannedRequests,
  recordsToSend,
  runBulk,
  sendsAgain,
} from '../core/bulk/run.js';
import { inFlightLimit } from '../core/bulk/in-flight.js';
import type { JournalContents } from '../core/bulk/journal.js';
import { type BulkFormat, formatOf } from '../core/bulk/records.js';
import { openSource } from '../core/bulk/source.js';
import type { BulkSchema } from '../core/bulk/schemas.js';
import { withRunLock } from '../core/lock.js';
import { CancelledError, OutcomeError, UsageError } from '../core/errors.js';
import type { CommandDef, OptionsOf } from './command.js';
import type { BULK_OPTIONS } from './bulk-options.js';
import { confirmByTyping } from './confirm.js';
import type { Context } from './context.js';
import { createListWriter } from './output/render.js';
import { applySet } from './body-input.js';
import { dryRunText, dryRunView } from './present.js';
import { isJsonFormat } from './output/format.js';
import { plural } from './output/text.js';

/** Every field a result line can have (CSV's columns, whichever result comes first). */
const RESULT_FIELDS = ['line', 'status', 'id', 'http_status', 'code', 'message', 'errors'];

export interface BulkRequest {
  from: string;
  format?: BulkFormat;
  journal?: string;
  mode: 'new' | 'resume' | 'restart';
  retryUnknown: boolean;
}

/** The bulk flags checked together; undefined when --from is not given (the others then make no sense). */
export function parseBulkOptions(options: OptionsOf<typeof BULK_OPTIONS>): BulkRequest | undefined {
  const { from, format, journal, resume, restart, retryUnknown } = options;
  if (from === undefined) {
    const stray = [
      format && '--format',
      journal && '--journal',
      resume && '--resume',
      restart && '--restart',
      retryUnknown && '--retry-unknown',
    ].find(Boolean);
    if (stray) throw new UsageError(`${stray} goes with --from FILE`);
    return undefined;
  }
  if (resume && restart) throw new UsageError('--resume and --restart disagree: give one');
  if (retryUnknown && !resume) throw new UsageError('--retry-unknown goes with --resume');
  if (from === '-' && journal === undefined)
    throw new UsageError('--from - (standard input) needs --journal FILE, so that the run can be resumed');
  return {
    from,
    format,
    journal,
    mode: resume ? 'resume' : restart ? 'restart' : 'new',
    retryUnknown: retryUnknown === true,
  };
}

/** The --set assignments of a bulk run, checked when parsed: a malformed one fails before any confirmation or read. */
export function checkBulkSets(set: string[] | undefined): string[] {
  for (const assignment of set ?? []) applySet({}, assignment);
  return set ?? [];
}

const DRY_RUN_SHOWN = 3;

/**
 * Runs `schema` over the records of `bulk.from`. A command whose spec declares a confirmation has been refused
 * by `verb` if it cannot be confirmed; here the user types the number of records back (`spec.confirm.records`).
 */
export async function runBulkCommand(
  ctx: Context,
  spec: CommandDef,
  schema: BulkSchema,
  bulk: BulkRequest,
  set: string[],
): Promise<void> {
  const amend = (record: Record<string, unknown>) => {
    if (set.length === 0) return record; // nothing to apply: no copy of every record, twice
    const amended = structuredClone(record);
    for (const assignment of set) applySet(amended, assignment);
    return amended;
  };
  const question = spec.confirm?.records;
  const format = formatOf(bulk.from, bulk.format);
  const source = await openSource(bulk.from, () => ctx.io.streams.stdin, ctx.signal);
  try {
    // What is read once (stdin, a pipe, a FIFO, a device) has no file to keep a journal beside.
    if (!source.regular && bulk.journal === undefined)
      throw new UsageError(
        `--from ${bulk.from} is not a regular file (a pipe, FIFO or device): give --journal FILE, so that the run can be resumed`,
      );
    const input = await checkInput({ schema, source, format, amend }).catch((error: unknown) => {
      // Each bad record named on a line of its own (the detail of the failure: --quiet keeps it), then the error.
      if (error instanceof BadRecordsError) for (const line of error.listed) ctx.io.alert(line);
      throw error;
    });
    const journalPath = bulk.journal ?? `${bulk.from}.journal`;
    if (ctx.globals.dryRun) return await showBulkDryRun(ctx, input, bulk, journalPath);
    // One run per journal at a time: a second one is refused rather than interleaved (one waiting at the question
    // included).
    const busy = () =>
      new UsageError(`${journalPath} is in use by another clinic run; wait for it to finish`);
    await withRunLock(journalPath, busy, async () => {
      // Whatever would refuse the run does so before the question: the journal's verdict (an earlier run without
      // --resume, another file's journal, another target), and a missing sign-in.
      const target = await targetOf(ctx);
      const previous = await earlierRun(journalPath, input, bulk.mode, target);
      if (question) await (await ctx.session()).accessToken();
      // What is asked for is what this run sends: after --resume, the records still to go.
      const toSend = recordsToSend(input, previous, bulk.retryUnknown);
      if (question && toSend > 0) await confirmByTyping(ctx, question(toSend), String(toSend));
      await send(ctx, input, bulk, journalPath, { target, previous });
    });
  } finally {
    await source.close();
  }
}

/** How long records in flight may still be answered after Ctrl-C: under the second bin gives a stopped run. */
const CTRL_C_GRACE_MS = 600;

async function send(
  ctx: Context,
  input: CheckedInput,
  bulk: BulkRequest,
  journalPath: string,
  decided: { target: BulkTarget; previous: JournalContents | undefined },
): Promise<void> {
  // Ctrl-C sends no further record and gives those in flight a moment to be answered (the run must end within the
  // second bin allows it): a record the server answered meanwhile is known, not one to check by hand.
  const abandon = new AbortController();
  const interrupted = ctx.signal;
  const abandonLater = () => setTimeout(() => abandon.abort(interrupted.reason), CTRL_C_GRACE_MS).unref();
  if (interrupted.aborted) abandon.abort(interrupted.reason);
  else interrupted.addEventListener('abort', abandonLater, { once: true });
  const client = await ctx.http({ signal: abandon.signal });
  const { journal, previous } = await openJournal(
    journalPath,
    input,
    bulk.mode,
    decided.target,
    decided.previous,
  );
  // A result line per record as it is sent: NDJSON unless the user chose a format.
  const spec = await ctx.output({ otherwise: 'ndjson', declared: RESULT_FIELDS });
  const writer = createListWriter(ctx.io, spec, [
    { header: 'LINE', path: 'line' },
    { header: 'STATUS', path: 'status' },
    { header: 'ID', path: 'id' },
    { header: 'HTTP', path: 'http_status' },
    { header: 'CODE', path: 'code' },
    { header: 'MESSAGE', path: 'message' },
  ]);
  if (bulk.retryUnknown)
    ctx.io.err(
      'warning: --retry-unknown sends again lines whose answer was lost; any the server did create will exist twice',
    );
  // `… | head`: the run stops sending, and ends with what it did on stderr (exit 1), every request answered and journaled.
  const stop = new AbortController();
  ctx.io.onOutputClosed(() => stop.abort());
  const progress = await ctx.io.progress(`${input.schema.command}: 0/${input.records}`);
  const started = ctx.clock.now();
  let summary;
  try {
    summary = await runBulk({
      client,
      input,
      journal,
      previous,
      retryUnknown: bulk.retryUnknown,
      signal: abandon.signal,
      interrupted,
      stop: stop.signal,
      inFlight: inFlightLimit(ctx.globals.concurrency),
      onResult: async (row, counts) => {
        await writer.write(row);
        progress.update(progressText(input.schema.command, counts, ctx.clock.now() - started));
      },
    });
  } finally {
    interrupted.removeEventListener('abort', abandonLater);
    progress.stop();
    await writer.end();
    await journal.close();
  }
  const { counts, unknownLines, stoppedBy } = summary;
  ctx.io.err(
    `${progressText(input.schema.command, counts, ctx.clock.now() - started)}; journal: ${journalPath}`,
  );
  if (unknownLines.length > 0) {
    const shown = unknownLines.slice(0, 20).join(', ') + (unknownLines.length > 20 ? ', …' : '');
    // What to check before the run can be finished: part of its failure, so --quiet keeps it.
    ctx.io.alert(
      unknownLines.length === 1
        ? `check on the server whether line ${shown} was created; if not, --resume --retry-unknown sends it again`
        : `check on the server whether lines ${shown} were created; if none was, --resume --retry-unknown sends them all again (it sends every unknown line)`,
    );
  }
  // Ctrl-C: what was not sent, and the way on.
  if (stoppedBy instanceof CancelledError && counts.done < counts.total)
    throw new CancelledError(
      `interrupted: ${counts.total - counts.done} of ${plural(counts.total, 'record')} not sent; --resume sends them`,
    );
  if (stoppedBy !== undefined) throw stoppedBy;
  const failed = counts.error + counts.unknown + counts.notAttempted;
  if (failed > 0)
    throw new OutcomeError(
      `${failed} of ${plural(counts.total, 'record')} ${failed === 1 ? 'is' : 'are'} not ok: see ${failed === 1 ? 'its result line' : 'their result lines'}`,
    );
}

/** Where the run's requests go (the journal records it; a resume elsewhere is refused). */
async function targetOf(ctx: Context): Promise<BulkTarget> {
  const settings = await ctx.settings();
  return { baseUrl: settings.get('base_url') ?? '', tenant: settings.get('tenant') };
}

/**
 * `customers create: 40/200 records, 38 ok, 1 error, 1 unknown (900/min)`; after --resume, how many of those were in
 * the journal already, the rate being of the records this run sent.
 */
function progressText(command: string, c: BulkCounts, elapsedMs: number): string {
  const sent = c.done - c.fromJournal - c.notAttempted;
  const perMinute = elapsedMs > 0 ? Math.round((sent / elapsedMs) * 60_000) : 0;
  const rest = [
    c.unknown && `${c.unknown} unknown`,
    c.notAttempted && `${c.notAttempted} not attempted`,
  ].filter(Boolean);
  const pace = c.fromJournal > 0 ? `${c.fromJournal} from the journal, ${sent} sent now` : `${perMinute}/min`;
  const rate = c.fromJournal > 0 && sent > 0 ? `, ${perMinute}/min` : '';
  return `${command}: ${c.done}/${plural(c.total, 'record')}, ${c.ok} ok, ${plural(c.error, 'error')}${rest.length ? `, ${rest.join(', ')}` : ''} (${pace}${rate})`;
}

/**
 * The requests a bulk run would send, as its results would be: a line each (NDJSON) unless the user chose a format,
 * one JSON array with -o json, the requests as text in a table's place. It goes by the journal as the run would: one
 * the run would refuse is refused, and a --resume shows only what it would send.
 */
async function showBulkDryRun(
  ctx: Context,
  input: CheckedInput,
  bulk: BulkRequest,
  journalPath: string,
): Promise<void> {
  const client = await ctx.http();
  const previous = await earlierRun(journalPath, input, bulk.mode, await targetOf(ctx));
  const spec = await ctx.output({ otherwise: 'ndjson', fields: false });
  const writer = isJsonFormat(spec.format) ? createListWriter(ctx.io, spec, []) : undefined;
  let toSend = 0;
  for await (const { line, request } of plannedRequests(input)) {
    if (!sendsAgain(previous, line, bulk.retryUnknown)) continue;
    if (toSend++ >= DRY_RUN_SHOWN) continue; // counted, not shown
    const view = dryRunView(client, request);
    await (writer ? writer.write(view) : ctx.io.write(dryRunText(view)));
  }
  await writer?.end();
  const more = toSend - Math.min(toSend, DRY_RUN_SHOWN);
  const valid = `${input.name} holds ${plural(input.records, 'valid record')}`;
  const sending = previous ? `; the run would send ${toSend} of them (the rest are in ${journalPath})` : '';
  ctx.io.err(`dry run: ${valid}${sending}${more ? ` (${more} more not shown)` : ''}; nothing was sent`);
}
