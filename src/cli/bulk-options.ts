// The flags of bulk runs (`--from FILE` on commands that create records), declared once for every such command.
import { option } from './options.js';

export const BULK_OPTIONS = [
  {
    ...option.file(
      '--from <file>',
      'send one request per record of FILE (.ndjson or .csv; - = stdin, with --format)',
    ),
    noRaw: true,
  },
  option.choice('--format <format>', 'format of --from (default: from the extension)', [
    'ndjson',
    'csv',
  ] as const),
  option.file(
    '--journal <file>',
    'journal of the run (default FILE.journal; required with --from - and other pipes)',
  ),
  option.flag(
    '--resume',
    'go on from the journal: skip lines already done, report possibly-sent ones unknown',
  ),
  option.flag('--restart', 'start over, replacing the journal (records it created would be created again)'),
  option.flag(
    '--retry-unknown',
    'with --resume: send again the lines whose answer was lost (may duplicate them)',
  ),
] as const;

export const BULK_HELP =
  'With --from, one request per record of an NDJSON or CSV file, checked whole before anything is sent, with a\n' +
  'journal (FILE.journal) so that a crash or Ctrl-C can be resumed with --resume without creating anything twice;\n' +
  'see docs/bulk.md. One result line per record on stdout (NDJSON unless -o says otherwise).';
