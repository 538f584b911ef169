// Reads a user of the current tenant; users outside it are as missing as unknown ones.
import { legacyError } from '../http/responses.js';
import { recordInPath } from './path-record.js';
import { ok, type Route, type TenantContext, tenantRoute } from './route.js';

export const userRoutes: Route[] = [tenantRoute('GET', '/v1/users/{id}', 'users.read', getUser)];

function getUser(ctx: TenantContext) {
  const inTenant = (id: number) =>
    ctx.store.roleOf(id, ctx.tenant.id) === undefined ? undefined : ctx.store.user(id);
  const user = recordInPath(ctx, inTenant, legacyError(404, 'User not found.'));
  const { name, email, title, avatar_url, is_active } = user;
  return ok({ id: user.id, name, email, title, avatar_url, is_active });
}
