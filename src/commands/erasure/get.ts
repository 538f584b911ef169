// `clinic erasure get ID`: GET /v1/data-erasure-requests/{id} (assumed).
import { showById } from '../../cli/resource-verbs.js';
import { paths } from '../../core/api/resources.js';

export const run = showById('erasure request', paths.erasureRequest);
