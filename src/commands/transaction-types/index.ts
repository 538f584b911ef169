// transaction-types: the declaration; its code loads only when it runs.
import { defineCommand, defineNoun } from '../../cli/command.js';
import { LIST_OPTIONS } from '../../cli/list-flags.js';

const list = defineCommand({
  name: 'list',
  summary: 'list the bank account transaction types (slug and label)',
  description:
    'List the slug/label pairs accepted as `type` by the bank account transaction endpoints\n' +
    '(GET /v1/account-transaction-types, one unpaginated list). Fields beyond slug and label are not shown in the\n' +
    'API document (assumed): -o json shows whatever the server sends.',
  options: LIST_OPTIONS,
  examples: ['clinic transaction-types list', 'clinic transaction-types list -o csv'],
  load: async () => (await import('./list.js')).run,
});

export default defineNoun({
  name: 'transaction-types',
  summary: 'bank account transaction types',
  category: 'Clinic data',
  examples: ['clinic transaction-types list'],
  commands: [list],
});
