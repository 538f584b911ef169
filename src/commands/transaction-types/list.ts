// `clinic transaction-types list`: GET /v1/account-transaction-types (unpaginated).
import { plainListVerb } from '../../cli/resource-verbs.js';
import { paths } from '../../core/api/resources.js';

export const run = plainListVerb({
  noun: 'transaction types',
  path: paths.transactionTypes,
  columns: [
    { header: 'SLUG', path: 'slug' },
    { header: 'LABEL', path: 'label' },
  ],
});
