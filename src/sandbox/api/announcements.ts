// GET /v1/announcements/{id}: one announcement, expired and inactive ones included.
import { ApiError, codedError } from '../http/responses.js';
import { parsePositiveInteger } from './field-errors.js';
import { ok, type Route, type TenantContext } from './route.js';

export const announcementRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/v1/announcements/{id}',
    tenantScoped: true,
    scope: 'announcements:read',
    ability: 'announcements.read',
    handle: getAnnouncement,
  },
];

function getAnnouncement(ctx: TenantContext) {
  const id = parsePositiveInteger(ctx.params.id ?? '');
  const announcement = id === undefined ? undefined : ctx.store.announcement(ctx.tenant.id, id);
  if (announcement === undefined) {
    throw new ApiError(codedError(404, 'RESOURCE_NOT_FOUND', 'Announcement not found.'));
  }
  const { tenant_id: _tenant, ...fields } = announcement;
  return ok(fields);
}
