// The global options every command takes: declared with the same builders as a command's, parsed and checked into
// one typed object once the command is known.
import { OUTPUT_FORMATS, type OutputFormat } from '../core/config/keys.js';
import { UsageError } from '../core/errors.js';
import type { OptionDef } from './command.js';
import { flagOf, option } from './options.js';
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
  /** -q, --quiet: nothing on stderr but errors. */
  quiet: boolean;
  /** --wide: tables show every column in full. */
  wide: boolean;
  /** --utc: human views show times in UTC. */
  utc: boolean;
  /** --jq EXPR: filter what -o json would print. */
  jq?: string;
  /** --concurrency N: requests in flight for --all and bulk runs; undefined = automatic. */
  concurrency?: number;
}

export const DEFAULT_MAX_RETRIES = 4;
const TIMEOUT_RANGE = { min: 1, max: 3600 };

const outputFormat = (text: string): OutputFormat => {
  const format = OUTPUT_FORMATS.find((candidate) => candidate === text);
  if (format === undefined)
    throw new UsageError(`unknown output format '${text}': use one of ${OUTPUT_FORMATS.join(', ')}`);
  return format;
};

/** Each global option by name, in the order help lists them. */
const GLOBAL = {
  profile: option.text(
    '--profile <name>',
    "profile to use (default: CLINIC_PROFILE, else the config's current_profile, else default)",
    { allowEmpty: true, completes: 'profile' },
  ),
  tenant: option.text(
    '--tenant <id-or-slug>',
    'tenant for this call (X-Tenant, sent as the id; a slug is looked up once and remembered in the profile; ' +
      "default: CLINIC_TENANT, else the profile's tenant)",
    { allowEmpty: true, completes: 'tenant' },
  ),
  baseUrl: option.text(
    '--base-url <url>',
    "API address for this call (default: CLINIC_BASE_URL, else the profile's base_url)",
    { allowEmpty: true },
  ),
  output: option.parsed(
    '-o, --output <format>',
    "output format: table, json, ndjson, csv (default: CLINIC_OUTPUT, else the profile's output, else table on a " +
      'terminal and json otherwise)',
    outputFormat,
    { choices: OUTPUT_FORMATS },
  ),
  json: option.flag('--json', 'same as -o json'),
  fields: option.parsed('--fields <a,b.c>', 'pick fields (dotted paths) for every format', parseFields),
  raw: option.flag('--raw', "print the server's JSON body untouched (refused by a command that prints none)"),
  csvRaw: option.flag(
    '--csv-raw',
    "CSV cells exactly as they are: no ' before cells a spreadsheet would run as formulas, and on a terminal " +
      'control characters kept (by default CSV on a terminal is sanitized like a table)',
  ),
  debug: option.flag('--debug', 'trace each HTTP exchange to stderr, secrets redacted (also CLINIC_DEBUG=1)'),
  colour: option.flag('--no-color', 'no colour (also NO_COLOR, or TERM=dumb)'),
  yes: option.flag('-y, --yes', 'answer yes to confirmations'),
  input: option.flag('--no-input', 'never prompt; fail where a prompt would be needed'),
  dryRun: option.flag(
    '--dry-run',
    'on commands that write: print the request and send nothing; a command with no dry run refuses it (exit 2)',
  ),
  quiet: option.flag(
    '-q, --quiet',
    'nothing on stderr but errors: no progress, retries, waits, notes or warnings, except one that output may ' +
      'be incomplete (an export whose collection changed while it was read, chat events dropped)',
  ),
  jq: option.text(
    '--jq <expr>',
    'filter what -o json would print through a jq expression; strings print raw; the output is read whole first',
  ),
  wide: option.flag('--wide', "tables show every column in full, whatever the terminal's width"),
  utc: option.flag('--utc', 'human views show times in UTC instead of local time'),
  maxRetries: option.int('--max-retries <n>', 'retries for retryable failures (default 4; 0 = off)', {
    min: 0,
    max: 20,
  }),
  concurrency: option.int(
    '--concurrency <n>',
    'requests in flight for --all and bulk runs when the rate-limit budget allows (default: automatic); output stays in order',
    { min: 1, max: 32 },
  ),
  requestTimeout: option.int(
    '--request-timeout <seconds>',
    'deadline of one whole HTTP exchange, body included (default 60; CLINIC_REQUEST_TIMEOUT); not downloads or chat tail',
    TIMEOUT_RANGE,
  ),
} as const;

/** For help, completions and commander: each is declared on the program without a parser (see parseGlobals). */
export const GLOBAL_OPTIONS: readonly OptionDef[] = Object.values(GLOBAL);

/** A global option's value: commander's text through the option's own parser, a switch as given. */
function valueOf<T>(def: OptionDef<T>, raw: Record<string, unknown>): T | undefined {
  const text = raw[def.key];
  return typeof text === 'string' && def.parse ? def.parse(text, flagOf(def)) : undefined;
}

/**
 * `raw`: commander's values, text as typed. Parsed here, when the command runs (not by commander on the way), so a
 * bad global value is reported where it always was: after the command's own arguments, and never over --help.
 */
export function parseGlobals(
  raw: Record<string, unknown>,
  env: Record<string, string | undefined>,
): GlobalOptions {
  const format = valueOf(GLOBAL.output, raw);
  if (raw.json && format !== undefined && format !== 'json') {
    throw new UsageError(`--json and --output ${format} disagree: give one of them`);
  }
  if (raw.jq !== undefined && format !== undefined && format !== 'json')
    throw new UsageError(`--jq filters JSON: it does not go with --output ${format}`);
  // --raw prints the server's body as it came: a format or fields typed beside it would be passed over in silence.
  // (An `output` from CLINIC_OUTPUT or the profile is a default, and yields. --jq filters the body --raw prints.)
  if (raw.raw && format !== undefined && format !== 'json')
    throw new UsageError(
      `--raw and --output ${format} disagree: --raw prints the server's JSON body as it came`,
    );
  if (raw.raw && raw.fields !== undefined)
    throw new UsageError("--raw and --fields disagree: --raw prints the server's JSON body as it came");
  return {
    profile: valueOf(GLOBAL.profile, raw),
    tenant: valueOf(GLOBAL.tenant, raw),
    baseUrl: valueOf(GLOBAL.baseUrl, raw),
    output: raw.json ? 'json' : format,
    fields: valueOf(GLOBAL.fields, raw),
    debug: raw.debug === true || isTruthy(env.CLINIC_DEBUG),
    colour: raw.color !== false && !env.NO_COLOR && env.TERM !== 'dumb',
    yes: raw.yes === true,
    input: raw.input !== false,
    dryRun: raw.dryRun === true,
    maxRetries: valueOf(GLOBAL.maxRetries, raw) ?? DEFAULT_MAX_RETRIES,
    raw: raw.raw === true,
    csvRaw: raw.csvRaw === true,
    quiet: raw.quiet === true,
    wide: raw.wide === true,
    utc: raw.utc === true,
    jq: valueOf(GLOBAL.jq, raw),
    concurrency: valueOf(GLOBAL.concurrency, raw),
    requestTimeoutMs: requestTimeout(raw, env.CLINIC_REQUEST_TIMEOUT) * 1000,
  };
}

/** Seconds for one whole exchange: flag > env > 60, both in the same range. */
function requestTimeout(raw: Record<string, unknown>, env: string | undefined): number {
  const flag = valueOf(GLOBAL.requestTimeout, raw);
  if (flag !== undefined) return flag;
  if (env) return parseWholeNumber(env, 'CLINIC_REQUEST_TIMEOUT', TIMEOUT_RANGE);
  return 60;
}

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
