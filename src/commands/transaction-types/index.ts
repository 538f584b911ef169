// transaction-types: the declaration; its code loads only when it runs.
import { listVerb, noun } from '../../cli/declare.js';

export default noun({
  name: 'transaction-types',
  summary: 'bank account transaction types',
  category: 'Clinic data',
  commands: [
    listVerb({
      noun: 'transaction types',
      path: 'transactionTypes',
      paged: false,
      columns: [
        { header: 'SLUG', path: 'slug', keep: true },
        { header: 'LABEL', path: 'label' },
      ],
      summary: 'list the bank account transaction types (slug and label)',
      description:
        'List the slug/label pairs accepted as `type` by the bank account transaction endpoints\n' +
        '(GET /v1/account-transaction-types, one unpaginated list). Fields beyond slug and label are not shown in the\n' +
        'API document (assumed): -o json shows whatever the server sends.',
      examples: ['clinic transaction-types list', 'clinic transaction-types list -o csv'],
    }),
  ],
});
