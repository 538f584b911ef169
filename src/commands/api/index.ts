// api: the declaration; its code loads only when it runs.
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  name: 'api',
  summary: 'make any API request and print the body',
  description:
    "Send a request to PATH (relative to base_url, e.g. /v1/channels) with the profile's token and X-Tenant,\n" +
    'and print the body unchanged (pretty on a terminal). An error status writes nothing to stdout: the body goes\n' +
    'to stderr with the error line. -F key=value adds typed fields (numbers, true, false, null, @file) and\n' +
    '-f key=value string fields: query parameters for GET, a JSON body otherwise.\n' +
    'Use it for endpoints whose parameters the API document does not show.',
  args: [{ name: 'path', description: 'path relative to base_url, e.g. /v1/account' }],
  options: [
    { flags: '-X, --method <method>', description: 'HTTP method (default GET, or POST with fields)' },
    { flags: '-F, --field <key=value>', description: 'typed field (repeatable)', repeatable: true },
    { flags: '-f, --raw-field <key=value>', description: 'string field (repeatable)', repeatable: true },
    { flags: '-H, --header <name:value>', description: 'extra header (repeatable)', repeatable: true },
    { flags: '--input <file>', description: 'JSON body from a file (- for stdin)' },
    { flags: '--paginate', description: "follow every page; print one JSON array of the pages' data" },
  ],
  examples: [
    'clinic api /v1/account',
    'clinic api /v1/customers -F per_page=5 --paginate -o ndjson',
    'clinic api -X POST /v1/customers -f first_name=Ada -f last_name=Lovelace',
  ],
  load: async () => (await import('./request.js')).run,
});
