// leads: `leads notes add`; its code loads only when it runs.
import { defineCommand, defineNoun } from '../../cli/command.js';
import { option } from '../../cli/options.js';

export const NOTE_ADD_OPTIONS = [
  option.text('--content <text>', 'the text of the note'),
  option.id('--user-id <n>', 'author of the note (default: the server decides, usually you)'),
] as const;

const add = defineCommand({
  name: 'add',
  summary: 'add a note to a lead',
  description:
    'Add a note to a lead (POST /v1/leads/{id}/notes, body {"content", "user_id"}). A lead whose customer was\n' +
    'erased (CUSTOMER_ERASED) or that is assigned to another salesperson (LEAD_NOT_ASSIGNED) is read-only:\n' +
    'the write is refused with exit 6.',
  args: [{ name: 'lead-id', description: 'lead id' }],
  options: NOTE_ADD_OPTIONS,
  examples: [
    'clinic leads notes add 12 --content "Called back, books next week"',
    'clinic leads notes add 12 --content "Handover" --user-id 4 --dry-run',
  ],
  load: async () => (await import('./notes-add.js')).run,
});

const notes = defineNoun({
  name: 'notes',
  summary: 'notes on a lead',
  examples: ['clinic leads notes add 12 --content "Called back"'],
  commands: [add],
});

export default defineNoun({
  name: 'leads',
  summary: 'leads (prospective patients): notes',
  category: 'Clinic data',
  examples: ['clinic leads notes add 12 --content "Called back"'],
  commands: [notes],
});
