// Prints a failure as one clear `error:` line plus its details (and a JSON object for json/ndjson output).
import { ApiError, AuthError, CliError, UnreachableError } from '../core/errors.js';
import { MAX_RETRY_AFTER_S } from '../core/limits.js';
import { readOnlyMeaning, toExitCode } from '../core/exit-codes.js';
import { clipRedacted, redactSecrets, redactSecretsDeep } from '../core/redact.js';
import { refusalAdvice, type SignInFacts } from '../core/auth/refusal-advice.js';
import { jsonForTerminal, sanitize } from './output/sanitize.js';
import { plural } from './output/text.js';
import { systemErrorMessage } from '../core/system-error.js';

export interface ErrorReportOptions {
  json: boolean;
  debug: boolean;
  /** What is known of the sign-in, for 401/403 hints. */
  signIn?: SignInFacts;
}

export type { SignInFacts };

/** A server's text on a line of its own: this much at most (a server may send megabytes of message). */
const MAX_SERVER_TEXT = 1000;
/** Field lines shown at most (-o json keeps them all). */
const MAX_FIELD_LINES = 50;

const clipped = (text: string): string => clipRedacted(text, MAX_SERVER_TEXT);

/**
 * The error line: the server's sentence and the status, each said once. A body without a message already reads
 * `HTTP 500 server error`; a validation message that is its first field error (Laravel's) is not said twice, as
 * the field lines follow; a read-only refusal says what the code means instead of the server's words for it.
 */
function headline(error: ApiError): string {
  const status = `HTTP ${error.status}`;
  const code = error.code && error.code !== error.message ? ` ${clipped(error.code)}` : '';
  const readOnly = readOnlyMeaning(error.code);
  if (readOnly) return `refused: ${readOnly} (${status}${code})`;
  const first = error.fieldErrors[0]?.messages[0];
  if (first && error.message.startsWith(first))
    return `validation failed for ${plural(error.fieldErrors.length, 'field')} (${status}${code})`;
  const message = clipped(error.message);
  if (message === status || message.startsWith(`${status} `)) return `${message}${code}`;
  return `${message} (${status}${code})`;
}

/** Human lines for stderr: no control character, no secret of this run, whatever the server put where. */
export function errorLines(error: unknown, options: ErrorReportOptions): string[] {
  return rawErrorLines(error, options).map((line) => sanitize(redactSecrets(line)));
}

function rawErrorLines(error: unknown, options: ErrorReportOptions): string[] {
  if (!(error instanceof Error)) return [`error: ${String(error)}`];
  const lines = [`error: ${systemErrorMessage(error) ?? error.message}`];
  if (error instanceof ApiError) {
    lines[0] = `error: ${headline(error)}`;
    for (const field of error.fieldErrors.slice(0, MAX_FIELD_LINES))
      lines.push(`  ${clipped(field.field)}: ${clipped(field.messages.join(' '))}`);
    const more = error.fieldErrors.length - MAX_FIELD_LINES;
    if (more > 0) lines.push(`  … ${plural(more, 'more field')} (-o json has them all)`);
    if (error.nextStep) lines.push(`next step: ${clipped(error.nextStep)}`);
    if (error.status === 429 || error.status === 503) {
      const seconds = error.retryAfterSeconds;
      // Said after the retries are over (or off): what the server asked, not a retry to come.
      const wait =
        seconds === undefined
          ? 'gave up; try again later'
          : seconds > MAX_RETRY_AFTER_S
            ? `the server asks to come back in ${seconds}s${instantText(Date.now() + seconds * 1000)}; not waiting that long`
            : `gave up; the server asked to wait ${seconds}s before the next request`;
      lines.push(`${error.status === 429 ? 'rate limited' : 'unavailable'}: ${wait}`);
    }
    if (error.detail) lines.push(error.detail);
    if (error.hint) lines.push(`hint: ${error.hint}`);
    const hint = refusalAdvice(error, options.signIn);
    if (hint) lines.push(hint.startsWith('run:') ? hint : `hint: ${hint}`);
  } else if (error instanceof AuthError && error.hint) {
    lines.push(error.hint);
  } else if (error instanceof UnreachableError && error.hint) {
    lines.push(`hint: ${error.hint}`);
  }
  if (options.debug && error.stack && !(error instanceof ApiError))
    lines.push(...error.stack.split('\n').slice(1));
  return lines;
}

/** `, at 2026-…Z` for an instant a date can hold (a server may ask for 1e20 seconds: then nothing). */
function instantText(ms: number): string {
  const at = new Date(ms);
  return Number.isNaN(at.getTime()) ? '' : `, at ${at.toISOString()}`;
}

/** The machine-readable form: {"error":{"status","code","message","errors"}}, secrets of this run hidden. */
export function errorJson(error: unknown): string {
  const message = error instanceof Error ? (systemErrorMessage(error) ?? error.message) : String(error);
  const payload =
    error instanceof ApiError
      ? {
          status: error.status,
          code: error.code ?? null,
          message,
          errors: error.fieldErrors.length
            ? Object.fromEntries(error.fieldErrors.map((f) => [f.field, f.messages]))
            : null,
          ...(error.nextStep ? { next_step: error.nextStep } : {}),
          ...(error.retryAfterSeconds !== undefined ? { retry_after: error.retryAfterSeconds } : {}),
        }
      : {
          status: null,
          code: error instanceof CliError ? error.code : 'error',
          message,
          errors: null,
        };
  // Read by scripts and seen on terminals: the server's text keeps no control a terminal would act on.
  return jsonForTerminal(
    JSON.stringify(redactSecretsDeep({ error: { ...payload, exit_code: toExitCode(error) } })),
  );
}
