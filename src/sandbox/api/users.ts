// Reads a user of the current tenant; users outside it are as missing as unknown ones.
import { ApiError, legacyError } from '../http/responses.js';
import { parsePositiveInteger } from './field-errors.js';
import { ok, type Route, type TenantContext } from './route.js';

export const userRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/v1/users/{id}',
    tenantScoped: true,
    scope: 'users:read',
    ability: 'users.read',
    handle: getUser,
  },
];

function getUser(ctx: TenantContext) {
  const id = parsePositiveInteger(ctx.params.id ?? '');
  const user = id === undefined ? undefined : ctx.store.user(id);
  if (user === undefined || ctx.store.roleOf(user.id, ctx.tenant.id) === undefined) {
    throw new ApiError(legacyError(404, 'User not found.'));
  }
  const { name, email, title, avatar_url, is_active } = user;
  return ok({ id: user.id, name, email, title, avatar_url, is_active });
}
