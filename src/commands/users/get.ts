// `clinic users get ID`: GET /v1/users/{id}.
import { showById } from '../../cli/resource-verbs.js';
import { paths } from '../../core/api/resources.js';

export const run = showById('user', paths.user);
