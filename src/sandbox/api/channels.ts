// GET /v1/channels: the tenant's messaging channels, as one unpaginated list.
import { ok, type Route, type TenantContext, tenantRoute } from './route.js';

export const channelRoutes: Route[] = [
  tenantRoute('GET', '/v1/channels', 'channels.read', (ctx: TenantContext) =>
    ok(
      ctx.store
        .ofTenant(ctx.store.channels, ctx.tenant.id)
        .map(({ id, name, type, is_active, created_at }) => ({ id, name, type, is_active, created_at })),
    ),
  ),
];
