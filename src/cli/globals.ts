// The global options every command takes, parsed and checked into one typed object.
import { OUTPUT_FORMATS, type OutputFormat } from '../core/config/keys.js';
import { UsageError } from '../core/errors.js';
import { parseFields } from './output/fields.js';
import { parseWholeNumber } from './parse-args.js';

export interface GlobalOptions {
  profile?: string;
  tenant?: string;
  baseUrl?: string;
  output?: OutputFormat;
  fields?: string[];
  debug: boolean;
  colour: boolean;
  yes: boolean;
  input: boolean;
  dryRun: boolean;
  maxRetries: number;
  raw: boolean;
  csvRaw: boolean;
  /** --request-timeout / CLINIC_REQUEST_TIMEOUT, in ms. */
  requestTimeoutMs: number;
}

export const DEFAULT_MAX_RETRIES = 4;

export function parseGlobals(
  raw: Record<string, unknown>,
  env: Record<string, string | undefined>,
): GlobalOptions {
  const format = raw.output as string | undefined;
  if (format !== undefined && !(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`unknown output format '${format}': use one of ${OUTPUT_FORMATS.join(', ')}`);
  }
  if (raw.json && format !== undefined && format !== 'json') {
    throw new UsageError(`--json and --output ${format} disagree: give one of them`);
  }
  return {
    profile: raw.profile as string | undefined,
    tenant: raw.tenant as string | undefined,
    baseUrl: raw.baseUrl as string | undefined,
    output: raw.json ? 'json' : (format as OutputFormat | undefined),
    fields: raw.fields === undefined ? undefined : parseFields(String(raw.fields)),
    debug: raw.debug === true || isTruthy(env.CLINIC_DEBUG),
    colour: raw.color !== false && !env.NO_COLOR,
    yes: raw.yes === true,
    input: raw.input !== false,
    dryRun: raw.dryRun === true,
    maxRetries:
      raw.maxRetries === undefined
        ? DEFAULT_MAX_RETRIES
        : parseWholeNumber(String(raw.maxRetries), '--max-retries', { min: 0, max: 20 }),
    raw: raw.raw === true,
    csvRaw: raw.csvRaw === true,
    requestTimeoutMs: requestTimeout(raw.requestTimeout, env.CLINIC_REQUEST_TIMEOUT) * 1000,
  };
}

/** Seconds for one whole exchange: flag > env > 60. */
function requestTimeout(flag: unknown, env: string | undefined): number {
  if (flag !== undefined) return parseWholeNumber(String(flag), '--request-timeout', { min: 1, max: 3600 });
  if (env) return parseWholeNumber(env, 'CLINIC_REQUEST_TIMEOUT', { min: 1, max: 3600 });
  return 60;
}

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
