// The one decision of the output format: the user's choice (--output/--json > CLINIC_OUTPUT > the profile) or the
// terminal's default, narrowed to what the command can write. `ctx.output()` asks it; nothing else decides.
import { OUTPUT_FORMATS, type OutputFormat } from '../../core/config/keys.js';
import type { Env } from '../../core/config/paths.js';

/** What a command needs of the format beyond the user's choice. */
export interface OutputRequest {
  /** The format when the user chose none (default: a table on a terminal, JSON elsewhere). */
  otherwise?: OutputFormat;
  /** The formats the command writes, its fallback first: any other choice becomes the first. */
  formats?: readonly OutputFormat[];
  /** false: the records go out whole, --fields does not apply (data as the server or the tool made it). */
  fields?: false;
  /** The config may be what is broken (doctor, an error's report): then the flag and CLINIC_OUTPUT decide. */
  configMayFail?: boolean;
  /** The fields the records' resource declares: CSV's first columns (core/api/declared-fields.ts). */
  declared?: readonly string[];
}

export function decideFormat(
  chosen: OutputFormat | undefined,
  terminal: boolean,
  request: OutputRequest = {},
): OutputFormat {
  const format = chosen ?? request.otherwise ?? (terminal ? 'table' : 'json');
  const { formats } = request;
  return !formats || formats.includes(format) ? format : (formats[0] as OutputFormat);
}

/**
 * A format typed on the command line that the command cannot write, said before anything is sent: a script asking
 * for CSV must not be handed JSON without a word. JSON and NDJSON stand in for each other (both are JSON data); a
 * format from CLINIC_OUTPUT or the profile is a default for every command, so there the fallback stays silent.
 */
export function refusedFormat(typed: OutputFormat | undefined, request: OutputRequest): string | undefined {
  const { formats } = request;
  if (typed === undefined || !formats || formats.includes(typed)) return undefined;
  if (isJsonFormat(typed) && formats.some(isJsonFormat)) return undefined;
  return `-o ${typed}: this command writes ${formats.join(' or ')}`;
}

/** A format's name as given somewhere unchecked (the environment, a command line that did not parse). */
export const knownFormat = (name: string | undefined): OutputFormat | undefined =>
  (OUTPUT_FORMATS as readonly (string | undefined)[]).includes(name) ? (name as OutputFormat) : undefined;

/** JSON data on stdout: errors are then written as a JSON object too. */
export const isJsonFormat = (format: OutputFormat | undefined) => format === 'json' || format === 'ndjson';

/**
 * The format as typed, for a command line that failed before its options were parsed (there is no context yet):
 * `--json`, `-o FORMAT` or `--output[=]FORMAT`, else CLINIC_OUTPUT.
 */
export function formatAsTyped(argv: readonly string[], env: Env): OutputFormat | undefined {
  let found: string | undefined;
  argv.forEach((arg, i) => {
    if (arg === '--json') found = 'json';
    else if (arg === '-o' || arg === '--output') found = argv[i + 1] ?? found;
    else if (arg.startsWith('--output=')) found = arg.slice('--output='.length);
    else if (/^-o\w/.test(arg)) found = arg.slice(2);
  });
  return knownFormat(found ?? env.CLINIC_OUTPUT);
}
