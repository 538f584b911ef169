// A bulk run: the whole input checked first, then one request per record, results in file order, each journaled
// before it leaves (several in flight when allowed: in-flight.ts, their "sending" lines made durable together); a
// lost answer is `unknown` and never re-sent blindly; answers that doom every further request stop the run.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { ApiError, CancelledError, NetworkError, OutcomeError, UsageError } from '../errors.js';
import type { ApiRequest, HttpClient } from '../http/client.js';
import { exactTwin } from '../http/exact-numbers.js';
import { type InFlightLimit, inFlightLimit } from './in-flight.js';
import { Journal, type JournalContents, type JournalHeader, type Outcome, readJournal } from './journal.js';
import { redactUrl } from '../redact.js';
import { type BulkFormat, BulkInputError, readRecords } from './records.js';
import { type BulkSchema, checkRecord } from './schemas.js';
import type { BulkSource } from './source.js';
import { collectEvery } from '../memory.js';

export interface BulkInput {
  schema: BulkSchema;
  /** The input, opened (source.ts). */
  source: BulkSource;
  format: BulkFormat;
  /** Applied to every record before it is checked (`--set`). */
  amend: (record: Record<string, unknown>) => Record<string, unknown>;
}

export interface CheckedInput extends BulkInput {
  /** What messages call the input: the path, or `stdin`. */
  name: string;
  records: number;
  size: number;
  sha256: string;
  /** The SHA-256 of each BLOCK_BYTES of the input, in order: the second pass sends nothing it has not matched. */
  blocks: Buffer[];
}

/**
 * The input is checked again block by block as it is read to be sent: a record leaves only once every byte it is made
 * of matches what the first pass checked (a file rewritten in place meanwhile stops the run there). 256 KiB: a 1 GiB
 * input keeps 4,096 digests (128 KiB).
 */
export const BLOCK_BYTES = 256 * 1024;

export type ResultRow =
  | { line: number; status: 'ok'; id: unknown }
  | {
      line: number;
      status: 'error';
      http_status: number | null;
      code: string | null;
      message: string;
      errors: unknown;
    }
  | { line: number; status: 'unknown'; message: string }
  | { line: number; status: 'not_attempted'; message: string };

export interface BulkCounts {
  done: number;
  total: number;
  ok: number;
  error: number;
  unknown: number;
  notAttempted: number;
  /** Of those done, the ones --resume took from the journal (not sent by this run). */
  fromJournal: number;
}

/** Reads the whole input once: every record parsed and checked, counted and hashed, nothing kept. */
export async function checkInput(input: BulkInput): Promise<CheckedInput> {
  const { source } = input;
  const hash = createHash('sha256');
  let size = 0;
  const blocks = new BlockDigests();
  async function* hashed() {
    for await (const chunk of source.firstPass()) {
      hash.update(chunk);
      blocks.update(chunk);
      size += chunk.length;
      yield chunk;
    }
  }
  let records = 0;
  // Every bad record is found in the one pass (the first few named), not one per run.
  const bad = new BadRecords(source.name);
  // From the first pass on: V8 would otherwise grow its young generation while it parses a large file (core/memory.ts).
  const tidy = collectEvery(1000);
  try {
    for await (const { line, record } of readRecords(hashed(), input.format, source.name, bad.add)) {
      tidy();
      const checked = checkRecord(input.schema, input.amend(record));
      if ('problem' in checked) bad.add(line, checked.problem);
      else records++;
    }
  } catch (error) {
    // What ends the read (a quote never closed…) comes after the records already found bad, named whatever their count.
    if (error instanceof BulkInputError && error.line !== undefined && bad.count > 0) {
      bad.stop(error.line, error.problem);
      throw bad.error();
    }
    throw error;
  }
  if (bad.count > 0) throw bad.error();
  if (records === 0) throw new BulkInputError(source.name, undefined, 'no records: the file is empty');
  return { ...input, name: source.name, records, size, sha256: hash.digest('hex'), blocks: blocks.end() };
}

/** How many bad records of an input are named, at most; the rest are counted. */
export const BAD_RECORDS_NAMED = 10;

interface BadRecord {
  line: number;
  problem: string;
}

/**
 * The bad records of an input as it is checked: the first BAD_RECORDS_NAMED, how many in all, and what ended the
 * check before the end of the file, if anything did.
 */
class BadRecords {
  private readonly named: BadRecord[] = [];
  private stopped?: BadRecord;
  count = 0;

  constructor(private readonly file: string) {}

  add = (line: number, problem: string): void => {
    if (++this.count <= BAD_RECORDS_NAMED) this.named.push({ line, problem });
  };

  /** What the read could not go past: named after the others, however many there are. */
  stop(line: number, problem: string): void {
    this.count++;
    this.stopped = { line, problem };
  }

  error(): BulkInputError {
    const [first] = this.named;
    return this.count === 1 && first
      ? new BulkInputError(this.file, first.line, first.problem)
      : new BadRecordsError(this.file, this.named, this.count, this.stopped);
  }
}

/**
 * More than one bad record: each named one is a line of its own (`listed`, FILE:LINE: problem), what ended the check
 * last; the error itself says how many there are.
 */
export class BadRecordsError extends BulkInputError {
  readonly listed: string[];

  constructor(file: string, named: readonly BadRecord[], count: number, stopped?: BadRecord) {
    const shown = [...named, ...(stopped ? [stopped] : [])];
    const lines = named.map(({ line }) => line).join(', ');
    const more = count > shown.length ? `, and ${count - shown.length} more` : '';
    const end = stopped ? `; the check stopped at line ${stopped.line}, past which nothing was read` : '';
    super(file, undefined, `${count} bad records (lines ${lines}${more})${end}; nothing was sent`);
    this.listed = shown.map(({ line, problem }) => `${file}:${line}: ${problem}`);
  }
}

/** The SHA-256 of each BLOCK_BYTES of a stream (the last block may be shorter). */
class BlockDigests {
  private readonly digests: Buffer[] = [];
  private hash = createHash('sha256');
  private filled = 0;

  update(chunk: Buffer): void {
    for (let at = 0; at < chunk.length;) {
      const take = Math.min(BLOCK_BYTES - this.filled, chunk.length - at);
      this.hash.update(chunk.subarray(at, at + take));
      at += take;
      if ((this.filled += take) === BLOCK_BYTES) this.close();
    }
  }

  end(): Buffer[] {
    if (this.filled > 0) this.close();
    return this.digests;
  }

  private close(): void {
    this.digests.push(this.hash.digest());
    this.hash = createHash('sha256');
    this.filled = 0;
  }
}

/**
 * The input's bytes read again, handed on a block at a time once the block matches the first pass's digest: the
 * records parsed from them are made only of checked bytes. A block that differs, or a file longer or shorter than
 * checked, stops the run there.
 */
async function* sameAsChecked(input: CheckedInput): AsyncGenerator<Buffer> {
  let block = 0;
  let held: Buffer[] = [];
  let heldBytes = 0;
  const pass = () => {
    const bytes = Buffer.concat(held, heldBytes);
    const expected = input.blocks[block];
    if (!expected || !createHash('sha256').update(bytes).digest().equals(expected))
      throw changedInput(input, `its bytes differ from offset ${block * BLOCK_BYTES}`);
    block++;
    held = [];
    heldBytes = 0;
    return bytes;
  };
  for await (const chunk of input.source.reread(input.size)) {
    for (let at = 0; at < chunk.length;) {
      const take = Math.min(BLOCK_BYTES - heldBytes, chunk.length - at);
      held.push(chunk.subarray(at, at + take));
      heldBytes += take;
      at += take;
      if (heldBytes === BLOCK_BYTES) yield pass();
    }
  }
  if (heldBytes > 0) yield pass();
  if (block !== input.blocks.length) throw changedInput(input, 'it is shorter than when it was checked');
}

/** Each checked record with its request, in file order: a second pass over the bytes the first one checked. */
export async function* plannedRequests(input: CheckedInput) {
  let seen = 0;
  for await (const { line, record } of readRecords(sameAsChecked(input), input.format, input.name)) {
    const checked = checkRecord(input.schema, input.amend(record));
    if ('problem' in checked) throw changedInput(input, `line ${line}: ${checked.problem}`);
    if (++seen > input.records) throw changedInput(input, `more than the ${input.records} records checked`);
    yield { line, request: input.schema.request(checked.record) };
  }
}

/** The input read again is not what was checked (a file rewritten in place between the two passes): exit 1. */
export class InputChangedError extends OutcomeError {}
const changedInput = (input: CheckedInput, what: string) =>
  new InputChangedError(`${input.name} changed after it was checked (${what}): the rest of it was not sent`);

export type JournalMode = 'new' | 'resume' | 'restart';

/**
 * The journal a run would go on from, read and checked without changing it (what --dry-run shows goes by it too): a
 * new run over an old journal, or a resume of another file, command or target, is refused.
 */
export async function earlierRun(
  path: string,
  input: CheckedInput,
  mode: JournalMode,
  target: BulkTarget,
): Promise<JournalContents | undefined> {
  // --restart replaces a journal unread (a damaged one, or one not the user's to trust): Journal.create checks that
  // what it replaces is a journal.
  const previous = mode === 'restart' ? undefined : await readJournal(path);
  if (mode === 'new' && previous) {
    throw new UsageError(
      `${path} holds an earlier run over this input: pass --resume to go on where it stopped, or --restart to ` +
        'start over (records it created would be created again)',
    );
  }
  if (mode === 'resume') {
    if (!previous) throw new UsageError(`--resume: there is no journal at ${path} to resume`);
    const { size, sha256 } = previous.header;
    if (size !== input.size || sha256 !== input.sha256)
      throw new UsageError(
        `--resume: ${input.name} is not the input ${path} was made for (its size or SHA-256 differ); ` +
          'resume with the same file, or --restart',
      );
    if (previous.header.command !== input.schema.command)
      throw new UsageError(`--resume: ${path} is a journal of '${previous.header.command}'`);
    refuseOtherTarget(path, previous.header, target);
  }
  return previous;
}

/** Decides the journal before anything is sent (earlierRun), and opens it: the earlier run's, or a new one. */
export async function prepareJournal(
  path: string,
  input: CheckedInput,
  mode: JournalMode,
  target: BulkTarget,
): Promise<{ journal: Journal; previous?: JournalContents }> {
  return openJournal(path, input, mode, target, await earlierRun(path, input, mode, target));
}

/** Opens the journal `earlierRun` decided on (`previous`, the earlier run's; else a new one). */
export async function openJournal(
  path: string,
  input: CheckedInput,
  mode: JournalMode,
  target: BulkTarget,
  previous: JournalContents | undefined,
): Promise<{ journal: Journal; previous?: JournalContents }> {
  if (previous) return { journal: await Journal.reopen(path, previous.validBytes), previous };
  const header = {
    journal: 'clinic-bulk' as const,
    version: 1 as const,
    command: input.schema.command,
    input: input.source.regular ? resolve(input.name) : input.name,
    format: input.format,
    size: input.size,
    sha256: input.sha256,
    records: input.records,
    created_at: new Date().toISOString(),
    base_url: target.baseUrl,
    tenant: target.tenant ?? null,
  };
  return { journal: await Journal.create(path, header, mode === 'restart') };
}

/** Where a run's requests go: the API and the tenant they are for. */
export interface BulkTarget {
  baseUrl: string;
  tenant: string | undefined;
}

/**
 * A resume goes where the run began: what the journal says was done was done there, and the rest belongs there (a
 * resume with another --tenant or profile would create the rest of the file in another clinic). A journal from before
 * targets were recorded is not checked.
 */
function refuseOtherTarget(path: string, header: JournalHeader, target: BulkTarget): void {
  if (header.base_url === undefined) return;
  const then = { baseUrl: header.base_url, tenant: header.tenant ?? undefined };
  if (then.baseUrl === target.baseUrl && then.tenant === target.tenant) return;
  const where = ({ baseUrl, tenant }: BulkTarget) =>
    `${redactUrl(baseUrl)}${tenant === undefined ? '' : ` (tenant ${tenant})`}`;
  throw new UsageError(
    `--resume: ${path} was made sending to ${where(then)}, and this run would send to ${where(target)}: ` +
      'resume with the same profile and --tenant, or --restart',
  );
}

/** Answers after which every further request would fail the same way. */
const dooms = (error: ApiError) =>
  error.status === 401 || error.status === 403 || error.status === 428 || error.status === 429;

/** The connection never opened: nothing reached the server. */
const neverSent = (error: unknown) =>
  error instanceof NetworkError && /connection refused|host not found/.test(error.message);

export interface BulkRunOptions {
  client: HttpClient;
  input: CheckedInput;
  journal: Journal;
  previous?: JournalContents;
  retryUnknown: boolean;
  /** Abandons the run and the requests in flight (their records unknown). */
  signal: AbortSignal;
  /**
   * Ctrl-C: no further record is sent, and those in flight are answered and journaled until `signal` (which follows
   * it shortly) abandons them; the run then ends interrupted. A record the server answered within that time is known,
   * not one to check by hand.
   */
  interrupted?: AbortSignal;
  /**
   * Stops the run as an answer that dooms the rest does: no further record is sent, those in flight are answered and
   * journaled (stdout's reader has gone: the results can no longer be shown).
   */
  stop?: AbortSignal;
  /** Requests in flight at once (default: one at a time). */
  inFlight?: InFlightLimit;
  onResult(row: ResultRow, counts: BulkCounts): Promise<void>;
}

export interface BulkSummary {
  counts: BulkCounts;
  unknownLines: number[];
  /** What stopped the run early, if anything (its exit code is the run's). */
  stoppedBy?: unknown;
}

function rowOf(line: number, state: Outcome): ResultRow {
  switch (state.state) {
    case 'ok':
      return { line, status: 'ok', id: state.id };
    case 'error':
      return {
        line,
        status: 'error',
        http_status: state.http_status,
        code: state.code,
        message: state.message,
        errors: state.errors ?? null,
      };
    case 'unknown':
      return { line, status: 'unknown', message: state.message };
    case 'not_sent':
      // Turned away by the server (not for the record's sake): its answer shown as an error, sent again on resume.
      if (state.http_status !== undefined)
        return {
          line,
          status: 'error',
          http_status: state.http_status,
          code: state.code ?? null,
          message: state.message,
          errors: null,
        };
      return { line, status: 'not_attempted', message: state.message };
  }
}

/** Whether a run over `previous` sends `line` again: never sent, or not processed (and possibly sent, when asked). */
/** How many of the input's records a run over `previous` (none: a new run) would send. */
export function recordsToSend(
  input: CheckedInput,
  previous: JournalContents | undefined,
  retryUnknown: boolean,
): number {
  let kept = 0;
  for (const line of previous?.lines.keys() ?? []) if (!sendsAgain(previous, line, retryUnknown)) kept++;
  return Math.max(input.records - kept, 0);
}

export function sendsAgain(
  previous: JournalContents | undefined,
  line: number,
  retryUnknown: boolean,
): boolean {
  const state = previous?.lines.get(line)?.state;
  if (state === 'ok' || state === 'error') return false;
  return !(state === 'sending' || state === 'unknown') || retryUnknown;
}

export async function runBulk(options: BulkRunOptions): Promise<BulkSummary> {
  const { client, input, journal, previous } = options;
  const inFlight = options.inFlight ?? inFlightLimit(1);
  const counts: BulkCounts = {
    done: 0,
    total: input.records,
    ok: 0,
    error: 0,
    unknown: 0,
    notAttempted: 0,
    fromJournal: 0,
  };
  const unknownLines: number[] = [];
  let stoppedBy: unknown;

  const emit = async (row: ResultRow) => {
    journal.flush(); // a result shown is in the journal: a kill -9 now never makes it unknown on --resume
    counts.done++;
    if (row.status === 'ok') counts.ok++;
    else if (row.status === 'error') counts.error++;
    else if (row.status === 'unknown') {
      counts.unknown++;
      unknownLines.push(row.line);
    } else counts.notAttempted++;
    await options.onResult(row, counts);
  };

  /** What --resume already knows of `line` (done, or possibly sent): its result row, without sending it. */
  const known = (line: number): ResultRow | undefined => {
    if (sendsAgain(previous, line, options.retryUnknown)) return undefined;
    counts.fromJournal++;
    const earlier = previous!.lines.get(line)!;
    if (earlier.state === 'ok' || earlier.state === 'error') return rowOf(line, earlier);
    // Sent before without a recorded answer ("sending" or "unknown").
    const message =
      'sent before without a recorded answer: it may exist on the server (check, or --retry-unknown)';
    journal.outcome(line, { state: 'unknown', message });
    return { line, status: 'unknown', message };
  };

  /** Sends one record whose "sending" line is on disk; records its outcome; sets stoppedBy when the run must stop. */
  const sendOne = async (line: number, request: ApiRequest, onSent: () => void): Promise<ResultRow> => {
    let outcome: Outcome;
    let dispatched = false;
    // A stop (the output closed) holds back a request still waiting for its turn, not one already on its way.
    const beforeDispatch = new AbortController();
    const holdBack = () => !dispatched && beforeDispatch.abort();
    options.stop?.addEventListener('abort', holdBack);
    options.interrupted?.addEventListener('abort', holdBack);
    try {
      const response = await client.request({
        ...request,
        signal: beforeDispatch.signal,
        onSent,
        onDispatch: (now) => {
          dispatched = now;
          if (!now && (options.stop?.aborted || options.interrupted?.aborted)) beforeDispatch.abort();
        },
      });
      inFlight.observe(response.headers);
      const data = (response.json<{ data?: { id?: unknown } }>() ?? {}).data;
      // The id as the server wrote it (an exact twin's BigInt past 2^53), in the journal and the result line alike.
      outcome = { state: 'ok', id: exactTwin(data)?.id ?? null };
    } catch (error) {
      const heldBack = beforeDispatch.signal.aborted && !dispatched && !options.signal.aborted;
      const cancelled = !heldBack && (error instanceof CancelledError || options.signal.aborted);
      // Stopped before it left (Ctrl-C or a failed refresh while it waited for the rate-limit window, a window too
      // long to wait for): the server never saw it, so a resume sends it; the next record would be stopped the same.
      const why = heldBack
        ? options.interrupted?.aborted
          ? 'interrupted'
          : 'the output was closed'
        : message(error);
      // An answer (a 401 or 429 that ended its retries) says itself what became of the record.
      outcome =
        dispatched || error instanceof ApiError
          ? failedOutcome(error)
          : { state: 'not_sent', message: `not sent: ${why}` };
      if (heldBack) {
        // the run ends by the stop (or Ctrl-C), which says why
      } else if (
        (error instanceof ApiError && dooms(error)) ||
        neverSent(error) ||
        (!dispatched && !cancelled)
      )
        stoppedBy ??= error;
      else if (cancelled) stoppedBy ??= new CancelledError('interrupted');
    } finally {
      options.stop?.removeEventListener('abort', holdBack);
      options.interrupted?.removeEventListener('abort', holdBack);
    }
    journal.outcome(line, outcome);
    return rowOf(line, outcome);
  };

  // The window: records started (or known from the journal) and not yet reported, in file order, at most
  // inFlight.allowed() of them besides those answered at its head (reported right after the refill below). Each refill
  // is journaled as one batch and its requests leave once that batch is on disk; refills made while an fdatasync runs
  // share the next one, so one fdatasync covers the "sending" lines of every record that went meanwhile.
  const window: { row: Promise<ResultRow>; settled: boolean }[] = [];
  const records = plannedRequests(input)[Symbol.asyncIterator]();
  let exhausted = false;
  /** The next record, read while the run waits for an answer (parsing and checking it off the critical path). */
  let ahead: ReturnType<typeof records.next> | undefined;
  const readAhead = () => {
    if (ahead === undefined && !exhausted && !halted()) (ahead = records.next()).catch(() => undefined);
  };
  const nextRecord = async () => {
    const next = ahead ?? records.next();
    ahead = undefined;
    try {
      const record = await next;
      if (record.done) exhausted = true;
      return record.done ? undefined : record.value;
    } catch (error) {
      if (!(error instanceof InputChangedError)) throw error;
      exhausted = true;
      stoppedBy ??= error; // what was sent is reported; the rest is not sent
      return undefined;
    }
  };
  const interrupted = () => options.signal.aborted || options.interrupted?.aborted === true;
  const halted = () => stoppedBy !== undefined || interrupted() || options.stop?.aborted === true;
  let requestsInFlight = 0;
  const track = (row: Promise<ResultRow>) => {
    const entry = { row, settled: false };
    row.then(
      () => (entry.settled = true),
      () => (entry.settled = true), // rethrown when the entry is reported
    );
    window.push(entry);
  };

  const tidy = collectEvery(1000); // constant memory however long the file (core/memory.ts)
  for (;;) {
    let answered = 0;
    while (answered < window.length && window[answered]!.settled) answered++;
    const busy = requestsInFlight > 0;
    const lines: number[] = [];
    const onDisk = deferred();
    // Once a request of this batch is on its way, the server works while the next record is read and results print.
    const leaving = deferred();
    const onSent = () => {
      leaving.resolve();
      readAhead();
    };
    while (!exhausted && !halted() && window.length - answered < inFlight.allowed()) {
      const next = await nextRecord();
      if (next === undefined) break;
      tidy();
      const earlier = known(next.line);
      if (earlier) {
        track(Promise.resolve(earlier));
        continue;
      }
      // Tracked now, in file order; sent once its "sending" line is on disk (at most once).
      const { line, request } = next;
      lines.push(line);
      requestsInFlight++;
      const answer = onDisk.promise.then(() => sendOne(line, request, onSent));
      track(answer.finally(() => requestsInFlight--));
      answer.then(leaving.resolve, leaving.resolve); // a client that never tells (a fake), or a request that failed
    }
    if (lines.length > 0) {
      journal.sendingBatch(lines, busy).then(onDisk.resolve, onDisk.reject);
      // One at a time, nothing else is in flight: printing waits until the request is on the wire, off its path.
      if (!busy) await leaving.promise;
    }
    while (window[0]?.settled) await emit(await window.shift()!.row);
    const head = window[0];
    if (head === undefined) {
      if (exhausted || halted()) break;
      continue; // all reported while the last batch left: refill
    }
    await head.row.catch(() => undefined); // reported, or rethrown, above on the next turn
  }
  if (stoppedBy === undefined && interrupted()) stoppedBy = new CancelledError('interrupted');
  if (stoppedBy === undefined && options.stop?.aborted)
    stoppedBy = new OutcomeError(
      'the output was closed (its reader stopped reading): no further record was sent; --resume sends the rest',
    );
  // A stop (not Ctrl-C: then leave at once; the journal says where to resume) reports the rest as not attempted.
  if (stoppedBy !== undefined && !(stoppedBy instanceof CancelledError) && !interrupted())
    for (let next = await nextRecord(); next !== undefined; next = await nextRecord()) {
      tidy();
      await emit({
        line: next.line,
        status: 'not_attempted',
        message: 'not sent: the run stopped before this record',
      });
    }
  await ahead?.catch(() => undefined); // a record read ahead and not sent (Ctrl-C): its read ends before the input closes
  if (stoppedBy === undefined && options.signal.aborted) stoppedBy = new CancelledError('interrupted');
  // Every record checked is sent (or skipped by --resume), or the run fails saying how many were not.
  if (stoppedBy === undefined && counts.done < counts.total)
    stoppedBy = new InputChangedError(
      `only ${counts.done} of the ${counts.total} records checked were read again to be sent: ${input.name} ` +
        'changed after it was checked, and the rest of it was not sent',
    );
  return { counts, unknownLines, stoppedBy };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A promise with its settling functions (Promise.withResolvers is Node 22's). */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
}

/** The outcome of a request that failed: `unknown` whenever the server may have stored the record. */
function failedOutcome(error: unknown): Outcome {
  if (error instanceof ApiError && error.status >= 500)
    // The server failed while handling it: it may have stored the record first, so it is never re-sent blindly.
    return {
      state: 'unknown',
      message: `the server failed while handling it (HTTP ${error.status}): ${error.message}`,
    };
  // Not processed, for a reason that is not the record's: shown as the error it is, journaled so that --resume sends it.
  if (error instanceof ApiError && dooms(error))
    return { state: 'not_sent', http_status: error.status, code: error.code ?? null, message: error.message };
  if (error instanceof ApiError)
    return {
      state: 'error',
      http_status: error.status,
      code: error.code ?? null,
      message: error.message,
      errors: error.fieldErrors.length
        ? Object.fromEntries(error.fieldErrors.map((f) => [f.field, f.messages]))
        : null,
    };
  if (neverSent(error)) return { state: 'not_sent', message: (error as Error).message };
  // A broken connection or a timeout after sending, or Ctrl-C: the record may exist.
  return { state: 'unknown', message: `the answer was lost: ${(error as Error).message}` };
}
