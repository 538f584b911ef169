// `clinic customers get ID`: GET /v1/customers/{id}.
import { showById } from '../../cli/show-verb.js';
import { paths } from '../../core/api/resources.js';

export const run = showById('customer', paths.customer);
