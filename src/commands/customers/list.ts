// `clinic customers list`: GET /v1/customers, page by page (the API documents no filter or sort for it).
import { pagedListVerb } from '../../cli/resource-verbs.js';
import { paths } from '../../core/api/resources.js';
import { CUSTOMER_COLUMNS } from './columns.js';

export const run = pagedListVerb({ noun: 'customers', path: paths.customers, columns: CUSTOMER_COLUMNS });
