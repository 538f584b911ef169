// channels: the declaration; its code loads only when it runs.
import { listVerb, noun } from '../../cli/declare.js';

export default noun({
  name: 'channels',
  summary: 'messaging channels of the tenant',
  category: 'Clinic data',
  commands: [
    listVerb({
      noun: 'channels',
      path: 'channels',
      paged: false,
      columns: [
        { header: 'ID', path: 'id', keep: true },
        { header: 'NAME', path: 'name', priority: 2 },
        { header: 'TYPE', path: 'type', priority: 1 },
        { header: 'ACTIVE', path: 'is_active' },
      ],
      summary: 'list the messaging channels of the tenant',
      description:
        'List channels (GET /v1/channels, one unpaginated list). The fields of a channel are not shown in the API\n' +
        'document (assumed): the table shows id, name, type and whether it is active; -o json shows everything.',
      examples: ['clinic channels list', 'clinic channels list -o json --fields id,name'],
    }),
  ],
});
