// `clinic announcements get ID`: GET /v1/announcements/{id}.
import { showById } from '../../cli/resource-verbs.js';
import { paths } from '../../core/api/resources.js';

export const run = showById('announcement', paths.announcement);
