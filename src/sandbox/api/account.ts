// The authenticated user's account, with the tenants the user belongs to (no X-Tenant needed).
import { ok, type Route, type UserContext } from './route.js';

export const accountRoutes: Route[] = [
  { method: 'GET', pattern: '/v1/account', tenantScoped: false, handle: getAccount },
];

function getAccount(ctx: UserContext) {
  const tenants = ctx.store.tenantsOf(ctx.user.id).map(({ id, name, slug, avatar_url, is_active }) => ({
    id,
    name,
    slug,
    avatar_url,
    is_active,
  }));
  return ok({ ...ctx.user, tenants });
}
