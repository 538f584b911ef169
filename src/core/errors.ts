// Typed errors of the CLI. Each kind maps to one exit code in exit-codes.ts; nothing else decides exit codes.

/** Bad arguments or input, refused before any request is sent (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Not logged in, or the token was rejected and could not be refreshed (exit 3). */
export class AuthError extends Error {
  override name = 'AuthError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Something named by the user does not exist, found out from the server's answer (exit 5). */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

/** An action the record's state does not allow, decided by the CLI before sending (exit 6). */
export class ConflictError extends Error {
  override name = 'ConflictError';
}

/** The user declined a confirmation or pressed Ctrl-C (exit 130). */
export class CancelledError extends Error {
  override name = 'CancelledError';
}

/** The server could not be reached or gave no usable answer (exit 1). */
export class NetworkError extends Error {
  override name = 'NetworkError';
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

/** An HTTP answer with a non-2xx status, whatever its body shape. */
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
}
