// channels: the declaration; its code loads only when it runs.
import { defineCommand, defineNoun } from '../../cli/command.js';
import { LIST_OPTIONS } from '../../cli/list-flags.js';

const list = defineCommand({
  name: 'list',
  summary: 'list the messaging channels of the tenant',
  description:
    'List channels (GET /v1/channels, one unpaginated list). The fields of a channel are not shown in the API\n' +
    'document (assumed): the table shows id, name, type and whether it is active; -o json shows everything.',
  options: LIST_OPTIONS,
  examples: ['clinic channels list', 'clinic channels list -o json --fields id,name'],
  load: async () => (await import('./list.js')).run,
});

export default defineNoun({
  name: 'channels',
  summary: 'messaging channels of the tenant',
  category: 'Clinic data',
  examples: ['clinic channels list'],
  commands: [list],
});
