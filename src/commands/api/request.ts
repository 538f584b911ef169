// `clinic api PATH`: any request, the body printed unchanged; the way to reach what the CLI does not model.
import { readFile } from 'node:fs/promises';
import { parseJsonObject } from '../../cli/body-input.js';
import type { CommandRun, OptionsOf } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { answerSink } from '../../cli/download.js';
import { sanitize } from '../../cli/output/sanitize.js';
import { changeWarning, showBody, showDryRun, showStream } from '../../cli/present.js';
import { ApiError, UsageError } from '../../core/errors.js';
import { ExportGuard, guardedPages } from '../../core/export-guard.js';
import { exactJson, parseExact } from '../../core/http/exact-numbers.js';
import { concurrencyOf } from '../../core/http/in-flight.js';
import { nestsDeeperThan, TOO_DEEP } from '../../core/json-depth.js';
import { pathProblem } from '../../core/http/request-url.js';
import type { API_OPTIONS } from './index.js';

export interface ApiOptions {
  path: string;
  method: string;
  fields: [string, unknown][];
  /** The same fields as typed (a file's text for @file): what a query carries. */
  fieldTexts: [string, string][];
  headers: Record<string, string>;
  input?: string;
  paginate: boolean;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];
/** GET and HEAD carry no body: their fields go in the query. Every other method sends them as a JSON body. */
const hasBodyMethod = (method: string) => method !== 'GET' && method !== 'HEAD';
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
/** Headers that say where the request goes or how it is framed: never from the command line. */
const FIXED_HEADERS = ['host', 'content-length', 'transfer-encoding', 'connection', 'upgrade'];

/**
 * -F values are typed: true/false/null become JSON, and a number only when JSON keeps its value exactly (1.10 is
 * sent as 1.1); one it would change (9007199254740993, 12345678901234567890123) stays a string, as gh api keeps what
 * it cannot type. @file reads a file. -f values stay strings.
 */
export function typedValue(raw: string): unknown {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(raw) && sameDecimal(String(Number(raw)), raw)) return Number(raw) || 0;
  return raw;
}

/** Whether two decimal texts write one value (`1.1` and `1.10`, `1e-7` and `0.0000001`, `0` and `-0`). */
function sameDecimal(a: string, b: string): boolean {
  const [x, y] = [decimalParts(a), decimalParts(b)];
  return x.digits === y.digits && (x.digits === '' || (x.sign === y.sign && x.exponent === y.exponent));
}

/** A decimal as its sign, its significant digits and the power of ten of the last of them. */
function decimalParts(text: string): { sign: string; digits: string; exponent: number } {
  const [, sign = '', whole = '', fraction = '', power = '0'] =
    /^(-?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text) ?? [];
  const all = `${whole}${fraction}`;
  const digits = all.replace(/^0+/, '').replace(/0+$/, '');
  const trailing = all.length - all.replace(/0+$/, '').length;
  return { sign, digits, exponent: Number(power) - fraction.length + trailing };
}

/** A field's text: as typed, or for -F @file the file's (its last line break dropped). */
async function fieldText(raw: string, typed: boolean): Promise<string> {
  if (!typed || !raw.startsWith('@')) return raw;
  try {
    return (await readFile(raw.slice(1), 'utf8')).replace(/\n$/, '');
  } catch {
    throw new UsageError(`-F: cannot read ${raw.slice(1)}`);
  }
}

export async function parseApiOptions(
  args: string[],
  options: Partial<OptionsOf<typeof API_OPTIONS>>,
): Promise<ApiOptions> {
  const path = args[0] ?? '';
  if (!path || /^[a-z][a-z0-9+.-]*:/i.test(path)) {
    throw new UsageError(`PATH must be relative to base_url, e.g. /v1/account (got '${path}')`);
  }
  // The query is split off here and sent as parameters; the rest must be a plain path below base_url (checked
  // again, with base_url, where the request is built).
  const problem =
    pathProblem(path.split('?', 1)[0] ?? '') ?? (path.includes('#') ? "a fragment ('#')" : undefined);
  if (problem)
    throw new UsageError(`PATH must be a path below base_url, e.g. /v1/account: it holds ${problem}`);
  const fields: [string, unknown][] = [];
  const fieldTexts: [string, string][] = [];
  for (const [flag, typed] of [
    ['field', true],
    ['rawField', false],
  ] as const) {
    for (const pair of options[flag] ?? []) {
      const at = pair.indexOf('=');
      if (at <= 0) throw new UsageError(`${typed ? '-F' : '-f'} expects key=value, got '${pair}'`);
      const [key, raw] = [pair.slice(0, at), pair.slice(at + 1)];
      const text = await fieldText(raw, typed);
      fieldTexts.push([key, text]);
      fields.push([key, typed && !raw.startsWith('@') ? typedValue(text) : text]);
    }
  }
  const headers: Record<string, string> = {};
  for (const header of options.header ?? []) {
    const at = header.indexOf(':');
    if (at <= 0) throw new UsageError(`-H expects 'Name: value', got '${header}'`);
    const name = header.slice(0, at).trim().toLowerCase();
    const value = header.slice(at + 1).trim();
    if (!HEADER_NAME.test(name) || CONTROL.test(value))
      throw new UsageError(`-H: '${name}' is not a header name, or its value holds a control character`);
    // Host picks the site behind a shared address: the request, and the token, would go to another one.
    if (FIXED_HEADERS.includes(name)) throw new UsageError(`-H: the ${name} header is set by clinic`);
    headers[name] = value;
  }
  const hasBody = options.input !== undefined || fields.length > 0;
  const method = (options.method ?? (hasBody && !options.paginate ? 'POST' : 'GET')).toUpperCase();
  if (!METHODS.includes(method))
    throw new UsageError(`-X: unknown method '${method}'; use ${METHODS.join(', ')}`);
  if (options.paginate && method !== 'GET') throw new UsageError('--paginate works with GET requests only');
  if (options.input !== undefined && !hasBodyMethod(method))
    throw new UsageError(`--input needs a method with a body (-X POST…), not ${method}`);
  return {
    path,
    method,
    fields,
    fieldTexts,
    headers,
    input: options.input,
    paginate: options.paginate === true,
  };
}

async function readInput(file: string, ctx: Context): Promise<unknown> {
  const text = file === '-' ? await ctx.io.readStdin() : await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) throw new UsageError(`--input: cannot read ${file}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return parseJsonObject(text, `--input ${file}`);
  }
  if (nestsDeeperThan(value)) throw new UsageError(`--input ${file} ${TOO_DEEP}`);
  return value;
}

export async function callApi(options: ApiOptions, ctx: Context): Promise<void> {
  // The body goes out as the server sent it: --fields would be passed over in silence (--jq picks from it).
  if (ctx.globals.fields !== undefined)
    throw new UsageError("--fields does not apply to api, which prints the server's body: pick with --jq");
  const at = options.path.indexOf('?');
  const pathOnly = at < 0 ? options.path : options.path.slice(0, at);
  const query = new URLSearchParams(at < 0 ? '' : options.path.slice(at + 1));
  const sendsBody = hasBodyMethod(options.method);
  let body: unknown;
  if (options.input !== undefined) body = await readInput(options.input, ctx);
  else if (sendsBody && options.fields.length > 0) body = Object.fromEntries(options.fields);
  // A query value is the text typed.
  if (!sendsBody) for (const [key, text] of options.fieldTexts) query.append(key, text);
  const pages = options.paginate ? pagesAsked(query) : undefined;

  // An -o it cannot write (csv, table) is refused before anything is sent.
  await ctx.output(options.paginate ? PAGES_OUTPUT : BODY_OUTPUT);
  const client = await ctx.http();
  const request = { method: options.method, path: pathOnly, query, body, headers: options.headers };
  if (ctx.globals.dryRun && options.method !== 'GET' && options.method !== 'HEAD') {
    return showDryRun(ctx, client, request);
  }
  if (pages) return paginateAll(pathOnly, query, pages, ctx);
  try {
    let text: string | undefined;
    await client.download(
      request,
      answerSink(ctx, (body) => (text = body), ctx.globals.requestTimeoutMs),
    );
    if (text !== undefined) await showBody(ctx, text);
  } catch (error) {
    // The server's error body is for the reader, not for a pipe: on stderr, after the error line.
    if (error instanceof ApiError && error.bodyText) error.detail = errorBodyText(error.bodyText);
    if (error instanceof ApiError && error.status === 404) {
      error.hint = doubledBase(pathOnly, (await ctx.settings()).get('base_url'));
    }
    throw error;
  }
}

/**
 * A path that starts with what base_url already ends with (`/api/v1/customers` against `…/api`): asked for below it
 * (`/api/api/v1/…`). Said after a 404, with the path meant.
 */
function doubledBase(path: string, baseUrl: string | undefined): string | undefined {
  let basePath: string;
  try {
    basePath = new URL(baseUrl ?? '').pathname.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
  const asked = path.startsWith('/') ? path : `/${path}`;
  if (basePath === '' || !asked.startsWith(`${basePath}/`)) return undefined;
  return (
    `base_url (${baseUrl}) ends with ${basePath} already, so this asked for ${basePath}${asked}: ` +
    `try \`clinic api ${asked.slice(basePath.length)}\``
  );
}

/** The body as the server sent it (pretty on a terminal): JSON, whatever -o json or -o ndjson says. */
const BODY_OUTPUT = { formats: ['json'], fields: false } as const;
/** --paginate: the records as served, in JSON (NDJSON when asked); `api` is the raw way in, no table, no --fields. */
const PAGES_OUTPUT = { formats: ['json', 'ndjson'], fields: false } as const;

/** --paginate starts at the query's page (default 1), at its per_page (default: the largest); checked before sending. */
function pagesAsked(query: URLSearchParams): { page?: number; perPage?: number } {
  return { page: wholeNumber(query, 'page'), perPage: wholeNumber(query, 'per_page') };
}

function wholeNumber(query: URLSearchParams, key: string): number | undefined {
  const values = query.getAll(key);
  if (values.length === 0) return undefined;
  const value = Number(values[0]);
  if (values.length > 1 || !/^[1-9]\d*$/.test(values[0] ?? '') || !Number.isSafeInteger(value))
    throw new UsageError(
      `--paginate: ${key} must be one whole number of 1 or more (got '${values.join("', '")}')`,
    );
  return value;
}

async function paginateAll(
  path: string,
  query: URLSearchParams,
  pages: { page?: number; perPage?: number },
  ctx: Context,
): Promise<void> {
  const client = await ctx.http();
  const options = { all: true, ...pages, concurrency: concurrencyOf(ctx.globals.concurrency) };
  const guard = new ExportGuard();
  await showStream(ctx, { columns: [], output: PAGES_OUTPUT }, async (writer) => {
    for await (const page of guardedPages(client, path, [...query], options, guard, ctx.signal)) {
      await writer.writeMany(page.records);
    }
  });
  const change = guard.change();
  if (change) ctx.io.alert(changeWarning(`records at ${path}`, change));
}

/** An error body for a person: JSON on one line (its strings escaped), anything else folded into one safe line. */
function errorBodyText(text: string): string {
  try {
    return exactJson(parseExact(text));
  } catch {
    const line = sanitize(text.trim());
    return line.length > 2000 ? `${line.slice(0, 2000)}…` : line;
  }
}

export const run: CommandRun<typeof API_OPTIONS> = async (input, ctx) =>
  callApi(await parseApiOptions(input.args, input.options), ctx);
