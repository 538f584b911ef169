// POST /api/broadcasting/auth: Laravel's private-channel authorization as pusher-js calls it (form or JSON body):
// signs `private-chat-log.{tenantId}` for members of that tenant, the one named in X-Tenant.
import { readFormBody } from '../http/body.js';
import { type ApiResponse, type FieldErrors, plainError } from '../http/responses.js';
import type { ChannelAuthority } from '../realtime/channel-auth.js';
import { SOCKET_ID, tenantOfChannel } from '../realtime/protocol.js';
import { addFieldError, throwIfInvalid } from './field-errors.js';
import type { Route, UserContext } from './route.js';
import { readTenantHeader } from './tenant.js';

/** Made per sandbox, since it signs with that sandbox's secret. */
export function broadcastingAuthRoute(authority: ChannelAuthority): Route {
  return {
    method: 'POST',
    pattern: '/broadcasting/auth',
    // Not tenant-scoped in the REST sense: membership is the channel's own check, answered 403 like Laravel's.
    tenantScoped: false,
    handle: (ctx) => authorizeChannel(ctx, authority),
  };
}

async function authorizeChannel(ctx: UserContext, authority: ChannelAuthority): Promise<ApiResponse> {
  const tenantId = readTenantHeader(ctx.req);
  const fields = await readFields(ctx);
  const socketId = fields.get('socket_id') ?? '';
  const errors: FieldErrors = {};
  if (socketId === '') addFieldError(errors, 'socket_id', 'The socket id field is required.');
  else if (!SOCKET_ID.test(socketId))
    addFieldError(errors, 'socket_id', 'The socket id field format is invalid.');
  throwIfInvalid(errors);

  const channel = fields.get('channel_name') ?? '';
  const channelTenant = tenantOfChannel(channel);
  const member =
    channelTenant === tenantId &&
    ctx.store.tenant(tenantId) !== undefined &&
    ctx.store.roleOf(ctx.user.id, tenantId) !== undefined;
  if (!member) return plainError(403, 'This action is unauthorized.');
  return { status: 200, body: { auth: authority.sign(socketId, channel) } };
}

/** pusher-js posts a form; other clients may send JSON. Only string values count. */
async function readFields(ctx: UserContext): Promise<Map<string, string>> {
  const contentType = String(ctx.req.headers['content-type'] ?? '').toLowerCase();
  if (!contentType.includes('json')) return new Map(await readFormBody(ctx.req));
  const body = await ctx.readJson();
  const entries = typeof body === 'object' && body !== null ? Object.entries(body) : [];
  return new Map(entries.filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
