// The contract's exit codes; each error class carries its own (errors.ts), API answers map here by status and code.

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

/**
 * Error codes that mean the record refuses writes (read-only), whatever HTTP status carries them. Only the API's own
 * error codes: LEAD_NOT_ASSIGNED is a `record_state` reason, and a write on another rep's lead is a plain 403 (exit 4).
 */
export const READ_ONLY_CODES: Record<string, string> = {
  CUSTOMER_ERASED: "the customer's data was erased, so the record is read-only",
};

/** What a read-only code means, if `code` is one (own keys only: a server's `valueOf` is no such code). */
export const readOnlyMeaning = (code: string | undefined): string | undefined =>
  code !== undefined && Object.hasOwn(READ_ONLY_CODES, code) ? READ_ONLY_CODES[code] : undefined;

/** HTTP statuses with an exit code of their own; any other failing status exits 1. */
const EXIT_CODE_BY_STATUS: ReadonlyMap<number, ExitCodeValue> = new Map([
  [401, ExitCode.auth],
  [403, ExitCode.forbidden],
  [404, ExitCode.notFound],
  [409, ExitCode.conflict],
  [422, ExitCode.validation],
  [428, ExitCode.setupRequired],
  [429, ExitCode.rateLimited],
  [503, ExitCode.rateLimited],
]);

export function exitCodeForStatus(status: number, code?: string): ExitCodeValue {
  if (readOnlyMeaning(code) !== undefined) return ExitCode.conflict;
  return EXIT_CODE_BY_STATUS.get(status) ?? ExitCode.failure;
}

/** Any thrown value → its exit code: the error's own, an API answer's by status and code, else 1. */
export function toExitCode(error: unknown): ExitCodeValue {
  const own = (error as { exitCode?: unknown } | null)?.exitCode;
  if (typeof own === 'number' && (Object.values(ExitCode) as number[]).includes(own))
    return own as ExitCodeValue;
  return ExitCode.failure;
}
