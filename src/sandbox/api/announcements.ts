// GET /v1/announcements/{id}: one announcement, expired and inactive ones included.
import { resourceNotFound } from '../http/responses.js';
import { tenantRecordInPath } from './path-record.js';
import { ok, type Route, type TenantContext, tenantRoute } from './route.js';

export const announcementRoutes: Route[] = [
  tenantRoute('GET', '/v1/announcements/{id}', 'announcements.read', getAnnouncement),
];

function getAnnouncement(ctx: TenantContext) {
  const announcement = tenantRecordInPath(
    ctx,
    ctx.store.announcements,
    resourceNotFound('Announcement not found.'),
  );
  const { tenant_id: _tenant, ...fields } = announcement;
  return ok(fields);
}
