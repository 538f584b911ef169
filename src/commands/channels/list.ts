// `clinic channels list`: GET /v1/channels (unpaginated).
import { plainListVerb } from '../../cli/resource-verbs.js';
import { paths } from '../../core/api/resources.js';

export const run = plainListVerb({
  noun: 'channels',
  path: paths.channels,
  columns: [
    { header: 'ID', path: 'id' },
    { header: 'NAME', path: 'name' },
    { header: 'TYPE', path: 'type' },
    { header: 'ACTIVE', path: 'is_active' },
  ],
});
