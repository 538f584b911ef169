// leads: `leads notes add`; its code loads only when it runs.
import { defineCommand } from '../../cli/command.js';
import { noun } from '../../cli/declare.js';
import { BULK_HELP, BULK_OPTIONS } from '../../cli/bulk-options.js';
import { option } from '../../cli/options.js';

export const NOTE_ADD_OPTIONS = [
  option.text('--content <text>', 'the text of the note'),
  option.id('--user-id <n>', 'author of the note (default: the server decides, usually you)'),
  option.many('--set <key=value>', 'with --from: set a field on every record (e.g. user_id=4)'),
  ...BULK_OPTIONS,
] as const;

const add = defineCommand({
  name: 'add',
  summary: 'add a note to a lead',
  description:
    'Add a note to a lead (POST /v1/leads/{id}/notes, body {"content", "user_id"}). A lead whose customer was\n' +
    'erased (CUSTOMER_ERASED) is read-only: the write is refused with exit 6. A lead assigned to another\n' +
    'salesperson (record_state LEAD_NOT_ASSIGNED) refuses your notes with a 403: exit 4.\n' +
    'With --from, each record gives lead_id, content and optionally user_id (no LEAD_ID argument then).\n' +
    BULK_HELP,
  args: [{ name: 'lead-id', description: 'lead id (not with --from)', optional: true }],
  options: NOTE_ADD_OPTIONS,
  dryRun: 'honoured',
  examples: [
    'clinic leads notes add 3 --content "Called back, books next week"',
    'clinic leads notes add 3 --content "Handover" --user-id 2 --dry-run',
    'clinic leads notes add --from notes.csv --set user_id=2',
  ],
  load: async () => (await import('./notes-add.js')).run,
});

const notes = noun({
  name: 'notes',
  summary: 'notes on a lead',
  examples: ['clinic leads notes add 3 --content "Called back"'],
  commands: [add],
});

export default noun({
  name: 'leads',
  summary: 'leads (prospective patients): notes',
  category: 'Clinic data',
  examples: ['clinic leads notes add 3 --content "Called back"'],
  commands: [notes],
});
