// erasure: data-erasure requests (deleting a patient's data for good); each verb's code loads only when it runs.
import { type Confirmation, defineCommand } from '../../cli/command.js';
import { getVerb, idArg, noun } from '../../cli/declare.js';
import { LIST_OPTIONS } from '../../cli/list-flags.js';
import { BULK_HELP, BULK_OPTIONS } from '../../cli/bulk-options.js';
import { option } from '../../cli/options.js';
import { otherwiseWithApi } from '../../cli/assumed.js';
import { ERASURE_SORT_FIELDS, ERASURE_STATUSES } from '../../core/api/erasure.js';

/** The last line of a verb's help whose request the API document does not show. */
const assumed = (request: string, example: string) =>
  `The path and payload are not shown in the API document (assumed, after the list endpoint): ${request}.` +
  otherwiseWithApi(example);

export const LIST_ERASURE_OPTIONS = [
  ...LIST_OPTIONS,
  option.choice('--status <status>', 'only requests in this status', ERASURE_STATUSES),
  option.dateTime(
    '--created-from <date-time>',
    'only requests created on or after this date-time, or from the start of this day (2026-01-31, local time; UTC with --utc)',
    'start',
  ),
  option.dateTime(
    '--created-to <date-time>',
    'only requests created on or before this date-time, or up to the end of this day (local time; UTC with --utc)',
    'end',
  ),
  option.choice('--sort-by <field>', 'sort field', ERASURE_SORT_FIELDS),
  option.choice('--sort-order <order>', 'sort direction', ['asc', 'desc'] as const),
] as const;

export const CREATE_OPTIONS = [
  option.id('--customer <id>', 'the customer whose data is to be erased'),
  option.text('--reason <text>', 'why (request_reason)'),
  option.many('--set <key=value>', 'with --from: set a field on every record (e.g. request_reason=...)'),
  ...BULK_OPTIONS,
] as const;

export const CANCEL_OPTIONS = [
  option.text('--reason <text>', 'why the request is withdrawn (cancellation_reason)'),
] as const;

export const CERTIFICATE_OPTIONS = [
  option.file(
    '-O, --output-file <file>',
    'where to save the PDF (default erasure-certificate-{id}.pdf; - = stdout)',
  ),
  option.flag('--force', 'overwrite an existing file'),
] as const;

export const WATCH_OPTIONS = [
  option.int('--interval <seconds>', 'seconds between polls (default 5)', { min: 1, max: 3600 }),
  option.int(
    '--timeout <seconds>',
    'give up after this long (exit 1; default: wait until a terminal status)',
    {
      min: 1,
    },
  ),
] as const;

const list = defineCommand({
  name: 'list',
  summary: 'list data-erasure requests',
  description:
    'List data-erasure requests (GET /v1/data-erasure-requests), filtered by status and creation time and\n' +
    'sorted by created_at, verified_at, executed_at or status. The default sort is not shown in the API\n' +
    'document; give --sort-by for a stable order across pages. --all with no sort given asks for the oldest\n' +
    'first (created_at asc), so requests created during the export land on its last pages.\n' +
    'A day given to --created-from or --created-to means the whole day in your local time zone (TZ), and a\n' +
    'date-time without an offset is local time too (with --utc, both are UTC, as the times shown); both are\n' +
    'sent to the server as full UTC date-times.',
  options: LIST_ERASURE_OPTIONS,
  dryRun: 'read-only',
  examples: [
    'clinic erasure list --status pending_verification',
    'clinic erasure list --created-from 2026-01-01 --created-to 2026-01-31 --sort-by created_at --all -o ndjson',
  ],
  load: async () => (await import('./list.js')).run,
});

const get = getVerb({
  what: 'erasure request',
  path: 'erasureRequest',
  summary: 'show one data-erasure request and the actions its state allows',
  description:
    'Show one data-erasure request: its status, the customer, who asked and when, what has been done, and\n' +
    'the actions its state allows now (state_allows: resend, cancel, retry, certificate).\n' +
    assumed('GET /v1/data-erasure-requests/{id}', 'clinic api /v1/data-erasure-requests/4'),
  examples: ['clinic erasure get 4', 'clinic erasure get 4 --fields status,state_allows -o json'],
});

const create = defineCommand({
  name: 'create',
  summary: "request the erasure of a customer's data (asks you to type the customer id back)",
  description:
    "Ask for a customer's data to be erased. Erasure deletes the patient's data for good: on a terminal you\n" +
    'type the customer id back to confirm; without a terminal pass --yes. The request then waits for\n' +
    'verification: follow it with `clinic erasure watch`.\n' +
    'With --from, each record gives customer_id and optionally request_reason; you type the number of records\n' +
    `to confirm. ${BULK_HELP}\n` +
    assumed(
      'POST /v1/data-erasure-requests with {"customer_id", "request_reason"}',
      'clinic api -X POST /v1/data-erasure-requests -F customer_id=42 -F request_reason=asked',
    ),
  options: CREATE_OPTIONS,
  dryRun: 'honoured',
  confirm: {
    action: 'erasure create',
    records: (n) => `This requests the erasure of the data of ${n} customer${n === 1 ? '' : 's'}, for good.`,
  },
  examples: [
    'clinic erasure create --customer 5 --reason "Patient asked by email on 2026-11-02"',
    'clinic erasure create --customer 5 --yes -o json',
    'clinic erasure create --from requests.csv --dry-run',
  ],
  load: async () => (await import('./create.js')).run,
});

const action = (
  name: 'resend' | 'cancel' | 'retry',
  summary: string,
  detail: string,
  examples: string[],
  confirm?: Confirmation,
) =>
  defineCommand({
    name,
    summary,
    description:
      `${detail}\nThe request is read first; the action is sent only where its state_allows.${name} is true (else exit 6).\n` +
      assumed(
        `POST /v1/data-erasure-requests/{id}/${name}${name === 'cancel' ? ' with {"cancellation_reason"}' : ''}`,
        `clinic api -X POST /v1/data-erasure-requests/4/${name}${name === 'cancel' ? ' -F cancellation_reason=duplicate' : ''}`,
      ),
    args: idArg('erasure request'),
    options: name === 'cancel' ? CANCEL_OPTIONS : undefined,
    dryRun: 'honoured',
    examples,
    confirm,
    load: async () => (await import('./action.js'))[name],
  });

const certificate = defineCommand({
  name: 'certificate',
  summary: 'download the erasure certificate of a completed request (PDF)',
  description:
    'Save the certificate that proves a completed request erased the data (a PDF). The request is read first\n' +
    '(state_allows.certificate); the PDF is saved only when the body starts with %PDF-, through a temporary\n' +
    'file; an existing file needs --force.\n' +
    assumed(
      'GET /v1/data-erasure-requests/{id}/certificate',
      'clinic api /v1/data-erasure-requests/4/certificate > 4.pdf',
    ),
  args: idArg('erasure request'),
  options: CERTIFICATE_OPTIONS,
  examples: ['clinic erasure certificate 4', 'clinic erasure certificate 4 -O certs/4.pdf --force'],
  noJq: 'erasure certificate writes a PDF, not JSON',
  noRaw: true,
  load: async () => (await import('./certificate.js')).run,
});

const watch = defineCommand({
  name: 'watch',
  summary: 'follow a request until it ends; exit 0 only when it completed',
  description:
    'Follow a request until it ends, printing each status change with its time, up to a terminal status\n' +
    '(completed, expired, cancelled, failed). Exit 0 only on completed; 1 on another terminal status or when\n' +
    '--timeout runs out, with the final status on stderr. Passing network errors and server faults are\n' +
    'ridden out.\n' +
    assumed('GET /v1/data-erasure-requests/{id}, polled', 'clinic api /v1/data-erasure-requests/4'),
  args: idArg('erasure request'),
  options: WATCH_OPTIONS,
  dryRun: 'read-only',
  examples: ['clinic erasure watch 4', 'clinic erasure watch 4 --interval 10 --timeout 3600 -o ndjson'],
  noJq: 'erasure watch prints each change as it happens, so there is no whole output to filter: pipe -o ndjson into jq',
  noRaw: true,
  load: async () => (await import('./watch.js')).run,
});

export default noun({
  name: 'erasure',
  summary: "data-erasure requests: erase a patient's data for good, safely",
  description:
    "Data-erasure requests delete a patient's data for good. Every action reads the request first and acts only\n" +
    'where its state_allows permits; create, cancel and retry ask for confirmation (--yes without a terminal).',
  category: 'Data protection',
  examples: [
    'clinic erasure list --status failed',
    'clinic erasure create --customer 5',
    'clinic erasure watch 4',
  ],
  commands: [
    list,
    get,
    create,
    action(
      'resend',
      'send the verification message again',
      'Send the customer the verification message again, for a request still waiting for it. No confirmation:\n' +
        'nothing is deleted.',
      ['clinic erasure resend 1'],
    ),
    action(
      'cancel',
      'withdraw a request (asks first)',
      'Withdraw a request before it runs, with the reason; nothing is erased. Asks for confirmation (--yes\n' +
        'without a terminal).',
      ['clinic erasure cancel 2 --reason "Patient changed their mind"'],
      { action: 'erasure cancel' },
    ),
    action(
      'retry',
      'run a failed request again (asks first)',
      'Run a request that failed part way again, once a person has looked at why. Asks for confirmation (--yes\n' +
        'without a terminal).',
      ['clinic erasure retry 7', 'clinic erasure retry 7 --yes'],
      { action: 'erasure retry' },
    ),
    certificate,
    watch,
  ],
});
