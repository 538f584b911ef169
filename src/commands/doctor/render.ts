// How doctor's results look: one human line per check (status, name, detail, and the fix for warn/fail), or the
// report as data for scripts.
import { pickFields } from '../../cli/output/fields.js';
import { createListWriter, type OutputSpec, type Sink, writeResource } from '../../cli/output/render.js';
import { sanitize } from '../../cli/output/sanitize.js';
import { displayWidth, wrapText } from '../../cli/output/cells.js';
import type { CheckResult, CheckStatus } from '../../core/doctor/check.js';
import type { DoctorReport } from '../../core/doctor/run-checks.js';
import { redactSecrets, redactSecretsDeep } from '../../core/redact.js';

const COLOURS: Record<CheckStatus, [string, string]> = {
  ok: ['\u001b[32m', '\u001b[39m'],
  warn: ['\u001b[33m', '\u001b[39m'],
  fail: ['\u001b[31m', '\u001b[39m'],
  skip: ['\u001b[2m', '\u001b[22m'],
};

/** Wide enough for every check's name, so details line up. */
export const NAME_WIDTH = 13;

export interface LineStyle {
  colour: boolean;
  /** The home directory, shown as `~`. */
  home?: string;
  /** The terminal's width: a longer line wraps inside it. None (a pipe): one line per check. */
  width?: number;
}

/** Cells before the detail: the status and the name. */
const DETAIL_AT = 6 + NAME_WIDTH + 1;
/** Narrower than this, the detail goes under the name, indented a little, rather than in a thin column. */
const NARROW = DETAIL_AT + 24;

/**
 * `fail  token         expired 3 h ago → run: clinic --profile sandbox login`; server text made terminal-safe. With a
 * width, a long detail wraps under its column (or, on a narrow terminal, on lines of its own under the name).
 */
export function humanLine(result: CheckResult, style: LineStyle): string {
  const tilde = (text: string) =>
    style.home && style.home.length > 1 ? text.split(`${style.home}/`).join('~/') : text;
  const status = result.status.padEnd(6);
  const painted = style.colour ? `${COLOURS[result.status][0]}${status}${COLOURS[result.status][1]}` : status;
  const fix = result.fix && result.status !== 'ok' ? ` → ${result.fix}` : '';
  // Doctor's report is what people paste into a ticket: no token a server echoed goes with it.
  const detail = sanitize(redactSecrets(tilde(result.detail + fix)));
  const head = `${painted}${result.name.padEnd(NAME_WIDTH)}`;
  const { width } = style;
  if (width === undefined || DETAIL_AT + displayWidth(detail) <= width) return `${head} ${detail}`;
  if (width < NARROW)
    return [head.trimEnd(), ...wrapText(detail, width - 2).map((line) => `  ${line}`)].join('\n');
  const indent = ' '.repeat(DETAIL_AT);
  const [first, ...rest] = wrapText(detail, width - DETAIL_AT);
  return [`${head} ${first ?? ''}`, ...rest.map((line) => indent + line)].join('\n');
}

/** The machine-readable form of one check: name, status, detail, fix when there is one, then its facts. */
export function checkRecord(result: CheckResult): Record<string, unknown> {
  const { name, status, detail, fix, transient, facts } = result;
  const record: Record<string, unknown> = { name, status, detail };
  if (fix !== undefined) record.fix = fix;
  if (transient) record.transient = true;
  for (const [key, value] of Object.entries(facts ?? {})) if (!(key in record)) record[key] = value;
  return redactSecretsDeep(record) as Record<string, unknown>;
}

/** The columns of csv (and of a table asked for with -o table --fields …): the facts are for JSON. */
export const CSV_COLUMNS = ['name', 'status', 'detail', 'fix'];

/** The report as data: --fields picks from each check, never from the wrapper; `interrupted` only after Ctrl-C. */
export function reportRecord(report: DoctorReport, fields?: string[]): Record<string, unknown> {
  const checks = report.checks.map(checkRecord);
  return {
    ok: report.ok,
    ...(report.interrupted ? { interrupted: true } : {}),
    checks: fields ? checks.map((check) => pickFields(check, fields)) : checks,
  };
}

/** The report for scripts: one JSON document (json, ndjson), or a row per check (csv, table with --fields). */
export async function writeReport(sink: Sink, spec: OutputSpec, report: DoctorReport): Promise<void> {
  if (spec.format === 'json' || spec.format === 'ndjson')
    return writeResource(sink, { ...spec, fields: undefined }, reportRecord(report, spec.fields));
  const writer = createListWriter(sink, { ...spec, fields: spec.fields ?? CSV_COLUMNS }, []);
  await writer.writeMany(report.checks.map(checkRecord));
  await writer.end();
}

/**
 * `no check failed` / `2 of 10 checks failed: base-url, token` (with warnings counted); failures that may pass are
 * told apart, so that a server's bad moment does not read as a broken setup.
 */
export function summary(report: Pick<DoctorReport, 'checks'>): string {
  const count = (status: CheckStatus) => report.checks.filter((c) => c.status === status);
  const failed = count('fail');
  const warned = count('warn').length;
  const warnings = warned ? ` (${warned} warning${warned === 1 ? '' : 's'})` : '';
  if (failed.length === 0) return `no check failed${warnings}`;
  const names = (checks: CheckResult[]) => checks.map((c) => c.name).join(', ');
  const head = `${failed.length} of ${report.checks.length} checks failed`;
  const passing = failed.filter((c) => c.transient);
  if (passing.length === 0) return `${head}: ${names(failed)}${warnings}`;
  const again = 'run doctor again in a moment';
  if (passing.length === failed.length)
    return `${head} for a moment, on the server's side: ${names(failed)}${warnings}; ${again}`;
  return `${head}: ${names(failed)}${warnings}; ${names(passing)} only for a moment, on the server's side`;
}
