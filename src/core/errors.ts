// Typed errors of the CLI. Each kind carries its exit code and its machine-readable code: one table, here.
import { ExitCode, type ExitCodeValue, exitCodeForStatus } from './exit-codes.js';

/**
 * A failure the CLI understands: its exit code and the `code` of the JSON error object. A class per kind, not a code
 * on one class: callers tell them apart with instanceof. (Each kind declares its three fields itself: a class made by
 * a function for each kind cost every start-up twice the classes.)
 */
export abstract class CliError extends Error {
  abstract readonly exitCode: ExitCodeValue;
  abstract readonly code: string;
}

/** Bad arguments or input, refused before any request is sent (exit 2). */
export class UsageError extends CliError {
  override name = 'UsageError';
  readonly exitCode: ExitCodeValue = ExitCode.usage;
  readonly code = 'usage';
}

/** Not logged in, or the token was rejected and could not be refreshed (exit 3). */
export class AuthError extends CliError {
  override name = 'AuthError';
  readonly exitCode: ExitCodeValue = ExitCode.auth;
  readonly code = 'auth';

  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Something named by the user does not exist, found out from the server's answer (exit 5). */
export class NotFoundError extends CliError {
  override name = 'NotFoundError';
  readonly exitCode: ExitCodeValue = ExitCode.notFound;
  readonly code = 'not_found';
}

/** An action the record's state does not allow, decided by the CLI before sending (exit 6). */
export class ConflictError extends CliError {
  override name = 'ConflictError';
  readonly exitCode: ExitCodeValue = ExitCode.conflict;
  readonly code = 'conflict';
}

/** The user pressed Ctrl-C, at a prompt or while the command ran (exit 130). */
export class CancelledError extends CliError {
  override name = 'CancelledError';
  readonly exitCode: ExitCodeValue = ExitCode.interrupted;
  readonly code = 'interrupted';
}

/** The user answered no at a confirmation, or typed back something else: nothing was sent (exit 2, as gh). */
export class DeclinedError extends CliError {
  override name = 'DeclinedError';
  readonly exitCode: ExitCodeValue = ExitCode.usage;
  readonly code = 'cancelled';
}

/** The rate-limit window would take longer to reset than is worth waiting for (exit 9). */
export class RateLimitedError extends CliError {
  override name = 'RateLimitedError';
  readonly exitCode: ExitCodeValue = ExitCode.rateLimited;
  readonly code = 'rate_limited';
}

/** The server could not be reached or gave no usable answer (exit 1). */
export class NetworkError extends CliError {
  override name = 'NetworkError';
  readonly exitCode: ExitCodeValue = ExitCode.failure;
  readonly code = 'network';
}

/**
 * The server could not be reached, or stopped answering (refused, reset, timed out, cut off): what may pass, unlike
 * an answer the CLI cannot use (exit 1 all the same).
 */
export class UnreachableError extends NetworkError {
  constructor(
    message: string,
    /** What to look at, printed after the error line (`hint: …`). */
    readonly hint?: string,
    /**
     * Why, for a reader that tells a passing failure from a lasting one (doctor): the system's code (`ECONNRESET`,
     * `ENOTFOUND`…), `CLINIC_DEADLINE`, or `CLINIC_CUT_OFF` for an answer that stopped midway.
     */
    readonly networkCode?: string,
  ) {
    super(message);
  }
}

/**
 * A server that answered with its own failure (5xx) or too many requests (429) where no ApiError is made (the
 * sign-in server): what may pass, and signing in again would not help. Exit 9 for 429 and 503, as the API's own
 * (rate limited or unavailable), else 1.
 */
export class ServerFailureError extends NetworkError {
  override readonly exitCode: ExitCodeValue;

  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.exitCode = status === 429 || status === 503 ? ExitCode.rateLimited : ExitCode.failure;
  }
}

/** The --jq program failed on the output it filters (exit 1). */
export class FilterError extends CliError {
  override name = 'FilterError';
  readonly exitCode: ExitCodeValue = ExitCode.failure;
  readonly code = 'jq';
}

/** A long-running check ended without the outcome asked for (e.g. `erasure watch` on `failed`) (exit 1). */
export class OutcomeError extends CliError {
  override name = 'OutcomeError';
  readonly exitCode: ExitCodeValue = ExitCode.failure;
  readonly code = 'outcome';
}

/** A field error of a 422 answer. */
export interface FieldError {
  field: string;
  messages: string[];
}

export interface ApiErrorDetails {
  status: number;
  code?: string;
  message: string;
  fieldErrors?: FieldError[];
  nextStep?: string;
  retryAfterSeconds?: number;
  /** The parsed body, or the raw text when it was not JSON. */
  body?: unknown;
  /** The body exactly as received. */
  bodyText?: string;
  /** The request that got this answer (method and path), for hints. */
  request?: { method: string; path: string };
}

/** An HTTP answer with a non-2xx status, whatever its body shape; its exit code follows the status and code. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly code?: string;
  readonly fieldErrors: FieldError[];
  readonly nextStep?: string;
  readonly retryAfterSeconds?: number;
  readonly body?: unknown;
  readonly bodyText?: string;
  readonly request?: { method: string; path: string };
  /** More for the reader, printed after the error line (e.g. `clinic api`'s copy of the body). */
  detail?: string;
  /** The CLI's own advice for this answer, a line after the detail (`hint: …`). */
  hint?: string;

  constructor(details: ApiErrorDetails) {
    super(details.message);
    this.status = details.status;
    this.code = details.code;
    this.fieldErrors = details.fieldErrors ?? [];
    this.nextStep = details.nextStep;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.body = details.body;
    this.bodyText = details.bodyText;
    this.request = details.request;
  }

  get exitCode(): ExitCodeValue {
    return exitCodeForStatus(this.status, this.code);
  }
}
