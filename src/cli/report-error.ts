// Prints a failure as one clear `error:` line plus its details (and a JSON object for json/ndjson output).
import { ApiError, AuthError, CliError } from '../core/errors.js';
import { MAX_RETRY_AFTER_S } from '../core/limits.js';
import { readOnlyMeaning, toExitCode } from '../core/exit-codes.js';
import { redactSecrets, redactSecretsDeep } from '../core/redact.js';
import { sanitize } from './output/sanitize.js';

export interface ErrorReportOptions {
  json: boolean;
  debug: boolean;
  /** What is known of the sign-in, for 401/403 hints. */
  signIn?: SignInFacts;
}

export interface SignInFacts {
  /** `clinic login` or `clinic --profile NAME login`. */
  loginCommand: string;
  /** Scopes of the stored OAuth sign-in; undefined for personal tokens and CLINIC_TOKEN (not known). */
  scopes?: string[];
}

/** The scope a request most likely needs, after the API document's examples (`customers:read`, `customers:write`). */
export function likelyScope(request: { method: string; path: string } | undefined): string | undefined {
  const resource = /^\/v1\/([a-z-]+)/.exec(request?.path ?? '')?.[1];
  if (!resource || resource === 'account') return undefined;
  return `${resource}:${request?.method === 'GET' || request?.method === 'HEAD' ? 'read' : 'write'}`;
}

function hintFor(error: ApiError, signIn: SignInFacts | undefined): string | undefined {
  const login = signIn?.loginCommand ?? 'clinic login';
  if (error.status === 401) return `run: ${login} (the token was rejected; check CLINIC_TOKEN if it is set)`;
  if (error.status !== 403) return undefined;
  const scope = likelyScope(error.request);
  if (!scope) return 'your token lacks a scope, or your user the role in this tenant, that this action needs';
  const granted = signIn?.scopes;
  if (granted && (granted.includes('*') || granted.includes(scope))) {
    return `the token has the scope ${scope}, so your user likely lacks the role for this in the tenant: ask a tenant admin`;
  }
  if (granted) {
    const wanted = [...new Set(['openid', ...granted, scope])].join(' ');
    return `the token lacks the scope ${scope}; sign in with it: ${login} --scopes "${wanted}"`;
  }
  return (
    `the token likely lacks the scope ${scope} (or your user the role for it in this tenant); ` +
    `sign in with it: ${login} --scopes "openid ${scope}"`
  );
}

/** Human lines for stderr: no control character, no secret of this run, whatever the server put where. */
export function errorLines(error: unknown, options: ErrorReportOptions): string[] {
  return rawErrorLines(error, options).map((line) => sanitize(redactSecrets(line)));
}

function rawErrorLines(error: unknown, options: ErrorReportOptions): string[] {
  if (!(error instanceof Error)) return [`error: ${String(error)}`];
  const lines = [`error: ${error.message}`];
  if (error instanceof ApiError) {
    const readOnly = readOnlyMeaning(error.code);
    if (readOnly) lines[0] = `error: refused: ${readOnly} (${error.message})`;
    lines[0] += ` (HTTP ${error.status}${error.code ? ` ${error.code}` : ''})`;
    for (const field of error.fieldErrors) lines.push(`  ${field.field}: ${field.messages.join(' ')}`);
    if (error.nextStep) lines.push(`next step: ${error.nextStep}`);
    if (error.status === 429 || error.status === 503) {
      const seconds = error.retryAfterSeconds;
      const wait =
        seconds === undefined
          ? 'retry later'
          : seconds > MAX_RETRY_AFTER_S
            ? `the server asks to come back in ${seconds}s, at ${new Date(Date.now() + seconds * 1000).toISOString()}; not waiting that long`
            : `retry after ${seconds}s`;
      lines.push(`${error.status === 429 ? 'rate limited' : 'unavailable'}: ${wait}`);
    }
    if (error.detail) lines.push(error.detail);
    const hint = hintFor(error, options.signIn);
    if (hint) lines.push(hint.startsWith('run:') ? hint : `hint: ${hint}`);
  } else if (error instanceof AuthError && error.hint) {
    lines.push(error.hint);
  }
  if (options.debug && error.stack && !(error instanceof ApiError))
    lines.push(...error.stack.split('\n').slice(1));
  return lines;
}

/** The machine-readable form: {"error":{"status","code","message","errors"}}, secrets of this run hidden. */
export function errorJson(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
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
  return JSON.stringify(redactSecretsDeep({ error: { ...payload, exit_code: toExitCode(error) } }));
}
