// How commands show what they have: a record, a list (paged, in hand, or live), a server's body, or a dry run. Every
// one goes through the one list writer or the one record writer (output/render.ts), with the format ctx.output() gives.
import { basename } from 'node:path';
import { declaredFieldsAt } from '../core/api/declared-fields.js';
import { dataOf, recordOf } from '../core/api/resources.js';
import { exactJson, parseExact } from '../core/http/exact-numbers.js';
import { CancelledError, NetworkError } from '../core/errors.js';
import type { ApiRequest, ApiResponse, HttpClient } from '../core/http/client.js';
import type { Page, PageMeta } from '../core/paginate.js';
import { redactBodyText, redactHeaders, redactUrl } from '../core/redact.js';
import type { Context } from './context.js';
import type { OutputRequest } from './output/format.js';
import {
  createListWriter,
  type ListWriter,
  type LiveLines,
  writeAllOrNothing,
  writeResource,
} from './output/render.js';
import { jsonForTerminal } from './output/sanitize.js';
import type { Column } from './output/table.js';
import { collectOnGrowth } from '../core/memory.js';
import type { CollectionChange, ExportGuard } from '../core/export-guard.js';

/**
 * A record as the server answered it; `path`, the request's, names its resource (its declared fields). A read must
 * answer with a record; a write's answer, which the document does not show for every endpoint, may be any value.
 */
export async function showResource(
  ctx: Context,
  response: ApiResponse,
  what: string,
  path?: string,
  answers: 'a record' | 'any value' = 'a record',
): Promise<void> {
  if (ctx.globals.raw) return ctx.io.writeServerText(response.text);
  const data = answers === 'a record' ? recordOf(response, what) : dataOf(response, what);
  await showRecord(ctx, data, {
    declared: path === undefined ? undefined : declaredFieldsAt(path),
  });
}

/** One record, through the record writer. */
export async function showRecord(ctx: Context, record: unknown, request?: OutputRequest): Promise<void> {
  await writeResource(ctx.io, await ctx.output(request), record);
}

/** A list's table columns and what the format must allow for it. */
export interface ListShape<T = unknown> {
  columns: Column[];
  /** Plural noun: an empty table says `no customers found` on stderr. */
  noun?: string;
  /** A live list (a watch, a tail): a line per item in the table format. */
  live?: LiveLines<T>;
  output?: OutputRequest;
}

/**
 * A list written as `produce` makes it, through the list writer: closed validly even when interrupted, and nothing
 * at all when the first record failed. Returns how many were written.
 */
export async function showStream<T>(
  ctx: Context,
  shape: ListShape<T>,
  produce: (writer: ListWriter<T>) => Promise<void>,
): Promise<number> {
  const spec = await ctx.output(shape.output);
  const writer = createListWriter(ctx.io, spec, shape.columns, shape.live);
  await writeAllOrNothing(writer, () => produce(writer));
  if (writer.count === 0 && spec.format === 'table' && shape.noun) ctx.io.err(`no ${shape.noun} found`);
  return writer.count;
}

/** A list already in hand (no server page behind it). */
export async function showItems(ctx: Context, records: readonly unknown[], shape: ListShape): Promise<void> {
  await showStream(ctx, shape, (writer) => writer.writeMany(records));
}

export interface ListPresentation extends ListShape {
  /** Plural noun for progress and the empty notice, e.g. `customers`. */
  noun: string;
  limit?: number;
  /** Show progress (long exports with --all). */
  progress: boolean;
  /** The duplicate check of a run that follows pages: a change of the collection is reported at the end. */
  guard?: ExportGuard;
  /** How to get a complete export when the collection changed (after "for a complete export, "). */
  completeHint?: string;
}

/** Streams records to the output as pages arrive; the output is closed validly even when interrupted. */
export async function showList(ctx: Context, pages: AsyncIterable<Page<unknown>>, how: ListPresentation) {
  const { io } = ctx;
  if (ctx.globals.raw) {
    for await (const page of pages) await io.writeServerText(page.text);
    return;
  }
  let pagesRead = 0;
  let lastMeta: PageMeta | undefined;
  await showStream(ctx, how, async (writer) => {
    const progress = how.progress ? await io.progress(`fetching ${how.noun}…`) : undefined;
    // A run that follows pages (--all, a --limit past one page) is tuned for constant memory from its second page
    // on (core/memory.ts); a one-page list never pays V8's set-up for it.
    let tidy: (() => void) | undefined;
    try {
      for await (const page of pages) {
        if (++pagesRead === 2) tidy = collectOnGrowth();
        lastMeta = page.meta;
        // meta.total comes from the server: only a number may reach the spinner.
        const served =
          Number.isSafeInteger(page.meta.total) && (page.meta.total as number) >= 0
            ? page.meta.total
            : undefined;
        const total = how.limit !== undefined ? Math.min(how.limit, served ?? how.limit) : served;
        const room = how.limit === undefined ? page.records.length : how.limit - writer.count;
        await writer.writeMany(page.records.slice(0, Math.max(0, room)));
        if (how.limit !== undefined && writer.count >= how.limit) break;
        tidy?.();
        progress?.update(`fetched ${writer.count}${total !== undefined ? ` of ${total}` : ''} ${how.noun}`);
      }
    } finally {
      progress?.stop();
    }
  });
  if (ctx.signal.aborted) throw new CancelledError('interrupted');
  const change = how.guard?.change();
  if (change) io.alert(changeWarning(how.noun, change, how.completeHint));
  // One page of more, shown to a person: how to see the rest.
  if (pagesRead === 1 && how.limit === undefined && !how.progress && io.stderrIsTTY && lastMeta) {
    const more = morePagesNote(lastMeta, how.noun);
    if (more) io.err(more);
  }
}

/** `page 1 of 3 (42 customers): --page 2 for the next, --all for every one`, when the server says there are more. */
function morePagesNote(meta: PageMeta, noun: string): string | undefined {
  const whole = (value: unknown) =>
    Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
  const current = whole(meta.current_page);
  const last = whole(meta.last_page);
  if (current === undefined || last === undefined || current >= last) return undefined;
  const total = whole(meta.total);
  const count = total === undefined ? '' : ` (${total} ${noun})`;
  return `page ${current} of ${last}${count}: --page ${current + 1} for the next, --all for every one`;
}

/** The warning for an export whose collection changed while it was paged: what changed, how to get it whole. */
export function changeWarning(noun: string, change: CollectionChange, completeHint?: string): string {
  const facts: string[] = [];
  const { totalAtStart: start, totalAtEnd: end } = change;
  if (start !== undefined && end !== undefined && start !== end)
    facts.push(
      `${start} at the start, ${end} at the end (${Math.abs(end - start)} ${end > start ? 'more' : 'fewer'})`,
    );
  if (change.skipped > 0)
    facts.push(
      `${change.skipped} ${change.skipped === 1 ? 'record' : 'records'} shown again by the shift, skipped`,
    );
  if (change.unchecked) facts.push('too many non-numeric ids to check every one for repeats');
  const hint = completeHint ? `${completeHint} or run it again` : 'run it again';
  return (
    `warning: the ${noun} changed during this export: ${facts.join('; ')}. ` +
    `What was written is valid but may miss records; for a complete export, ${hint}`
  );
}

/** The request a dry run shows: method, URL, headers and body, every secret in them redacted. */
export function dryRunView(client: HttpClient, request: ApiRequest, upload?: { path: string; size: number }) {
  const prepared = client.prepare(request);
  const headers = redactHeaders({
    ...prepared.headers,
    authorization: 'Bearer <token>',
    ...(upload ? { 'content-type': 'multipart/form-data' } : {}),
  });
  const body = prepared.body === undefined ? undefined : JSON.parse(redactBodyText(prepared.body));
  const parts = upload && [
    { name: 'file', filename: basename(upload.path), path: upload.path, bytes: upload.size },
  ];
  const url = redactUrl(prepared.url);
  return { method: prepared.method, url, headers, body, parts };
}

/** A dry run's request as a person reads it: the request line, the headers, the body. */
export function dryRunText(view: ReturnType<typeof dryRunView>): string {
  const lines = [`${view.method} ${view.url}`, ...Object.entries(view.headers).map(([k, v]) => `${k}: ${v}`)];
  if (view.body !== undefined) lines.push('', JSON.stringify(view.body, null, 2));
  for (const part of view.parts ?? []) lines.push('', `part file: ${part.path} (${part.bytes} bytes)`);
  return `${lines.join('\n')}\n`;
}

/** --dry-run: the request that would be sent, secrets redacted; nothing is sent (or read: an upload shows its file). */
export async function showDryRun(
  ctx: Context,
  client: HttpClient,
  request: ApiRequest,
  upload?: { path: string; size: number },
): Promise<void> {
  const view = dryRunView(client, request, upload);
  const spec = await ctx.output({ fields: false });
  if (spec.format === 'json' || spec.format === 'ndjson') return writeResource(ctx.io, spec, view);
  await ctx.io.write(dryRunText(view));
  ctx.io.err('dry run: nothing was sent');
}

/** A server's answer as it came; pretty-printed JSON when a person is reading a terminal. */
export async function showBody(ctx: Context, text: string): Promise<void> {
  if (text === '') return;
  let out = text;
  if (ctx.io.stdoutIsTTY) {
    try {
      // Its integers as the server wrote them; what a terminal would act on (C1, bidi, line separators) escaped as
      // JSON escapes it: the same JSON, nothing to act on.
      out = jsonForTerminal(exactJson(parseExact(text), 2));
    } catch {
      // not JSON: shown as is
    }
  }
  await ctx.io.writeServerText(out);
}

/** An unpaginated list (`{success, data: [...]}`) printed exactly like a paginated one. */
export async function showRecords(ctx: Context, response: ApiResponse, how: ListPresentation): Promise<void> {
  if (ctx.globals.raw) return ctx.io.writeServerText(response.text);
  const data = dataOf<unknown>(response, how.noun);
  if (!Array.isArray(data))
    throw new NetworkError(`unexpected response for ${how.noun}: 'data' is not a list`);
  const records: unknown[] = data;
  async function* onePage(): AsyncGenerator<Page<unknown>> {
    yield { records, meta: { total: records.length }, text: response.text };
  }
  await showList(ctx, onePage(), how);
}

/** A write: its request printed under --dry-run, else sent and its answer shown. */
export async function sendAndShow(ctx: Context, request: ApiRequest, what: string): Promise<void> {
  const client = await ctx.http();
  if (ctx.globals.dryRun) return showDryRun(ctx, client, request);
  await showResource(ctx, await client.request(request), what, request.path, 'any value');
}
