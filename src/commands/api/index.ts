// api: the declaration; its code loads only when it runs.
import { defineCommand } from '../../cli/command.js';
import { option } from '../../cli/options.js';

export const API_OPTIONS = [
  option.text('-X, --method <method>', 'HTTP method (default GET, or POST with fields)'),
  option.many('-F, --field <key=value>', 'typed field'),
  option.many('-f, --raw-field <key=value>', 'string field'),
  option.many('-H, --header <name:value>', 'extra header'),
  option.file('--input <file>', 'JSON body from a file (- for stdin)'),
  option.flag('--paginate', "follow every page; print one JSON array of the pages' data"),
] as const;

export default defineCommand({
  name: 'api',
  category: 'Tools',
  summary: 'make any API request and print the body',
  description:
    "Send a request to PATH (relative to base_url, e.g. /v1/channels) with the profile's token and X-Tenant,\n" +
    'and print the body unchanged (pretty on a terminal). An error status writes nothing to stdout: the body goes\n' +
    'to stderr with the error line. -F key=value adds typed fields (numbers, true, false, null, @file) and\n' +
    '-f key=value string fields: query parameters for GET and HEAD, a JSON body for any other method, DELETE\n' +
    'included. A query value goes as typed; in a body, a -F number whose value JSON would not keep exactly\n' +
    '(9007199254740993) goes as a string. --paginate starts at the page PATH or -F gives (default 1);\n' +
    'page and per_page must be whole numbers of 1 or more.\n' +
    'Use it for endpoints whose parameters the API document does not show. Pick from its output with --jq\n' +
    '(--fields does not apply).',
  args: [{ name: 'path', description: 'path relative to base_url, e.g. /v1/account' }],
  options: API_OPTIONS,
  dryRun: 'honoured',
  examples: [
    'clinic api /v1/account',
    'clinic api /v1/customers -F per_page=5 --paginate -o ndjson',
    "clinic api /v1/account --jq '.data.tenants[].slug'",
    'clinic api -X POST /v1/customers -f first_name=Ada -f last_name=Lovelace',
  ],
  load: async () => (await import('./request.js')).run,
});
