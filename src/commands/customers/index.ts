// customers: the verbs' declarations; each verb's code loads only when it runs.
import { defineCommand } from '../../cli/command.js';
import { idArg, noun } from '../../cli/declare.js';
import { LIST_OPTIONS } from '../../cli/list-flags.js';
import { BULK_HELP, BULK_OPTIONS } from '../../cli/bulk-options.js';
import { option } from '../../cli/options.js';

const list = defineCommand({
  name: 'list',
  summary: 'list customers (patients) of the tenant',
  description:
    "List customers (GET /v1/customers). The API document does not show this endpoint's filters; pass any\n" +
    'query parameter with --filter key=value (the sandbox knows search, sort_by and sort_order).',
  options: LIST_OPTIONS,
  dryRun: 'read-only',
  examples: [
    'clinic customers list --per-page 20',
    'clinic customers list --all -o ndjson > customers.ndjson',
    'clinic customers list --filter search=smith --limit 5 -o csv',
  ],
  load: async () => (await import('./list.js')).run,
});

const get = defineCommand({
  name: 'get',
  summary: 'show one customer',
  args: idArg('customer'),
  dryRun: 'read-only',
  examples: ['clinic customers get 7', 'clinic customers get 7 --fields first_name,record_state.reason_code'],
  load: async () => (await import('./get.js')).run,
});

export const CREATE_OPTIONS = [
  option.text('--data <json|@file|->', 'the body: JSON text, @file, or - for stdin'),
  option.many('--set <key=value>', 'set a field (key:=json for non-strings); with --from, on every record'),
  ...BULK_OPTIONS,
] as const;

const create = defineCommand({
  name: 'create',
  summary: 'create a customer',
  description:
    'Create a customer (POST /v1/customers). The API document does not show the body fields; the sandbox\n' +
    'takes first_name, last_name (required), email, phone_number and date_of_birth (YYYY-MM-DD).\n' +
    '--set key=value sets a string, --set key:=json a JSON value; both apply on top of --data.\n' +
    BULK_HELP,
  options: CREATE_OPTIONS,
  dryRun: 'honoured',
  examples: [
    'clinic customers create --set first_name=Ada --set last_name=Lovelace --set email=ada@example.com',
    'clinic customers create --data @customer.json',
    'echo \'{"first_name":"Ada","last_name":"King"}\' | clinic customers create --data -',
    'clinic customers create --from patients.csv            # then, after a crash: --resume',
  ],
  load: async () => (await import('./create.js')).run,
});

export default noun({
  name: 'customers',
  category: 'Clinic data',
  summary: 'customers (patients): list, get, create',
  examples: ['clinic customers list', 'clinic customers get 7'],
  commands: [list, get, create],
});
