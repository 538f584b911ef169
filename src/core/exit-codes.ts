// The contract's exit codes, decided in one place from the typed errors.
import { ApiError, AuthError, CancelledError, ConflictError, NotFoundError, UsageError } from './errors.js';

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  forbidden: 4,
  notFound: 5,
  conflict: 6,
  validation: 7,
  setupRequired: 8,
  rateLimited: 9,
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export function exitCodeForStatus(status: number, code?: string): ExitCodeValue {
  if (code === 'CUSTOMER_ERASED') return ExitCode.conflict;
  switch (status) {
    case 401:
      return ExitCode.auth;
    case 403:
      return ExitCode.forbidden;
    case 404:
      return ExitCode.notFound;
    case 409:
      return ExitCode.conflict;
    case 422:
      return ExitCode.validation;
    case 428:
      return ExitCode.setupRequired;
    case 429:
    case 503:
      return ExitCode.rateLimited;
    default:
      return ExitCode.failure;
  }
}

export function toExitCode(error: unknown): ExitCodeValue {
  if (error instanceof UsageError) return ExitCode.usage;
  if (error instanceof AuthError) return ExitCode.auth;
  if (error instanceof ConflictError) return ExitCode.conflict;
  if (error instanceof NotFoundError) return ExitCode.notFound;
  if (error instanceof CancelledError) return ExitCode.interrupted;
  if (error instanceof ApiError) return exitCodeForStatus(error.status, error.code);
  return ExitCode.failure;
}
