// The shape of a REST route: method, path pattern, the scope and role ability it needs, and its handler.
import type { IncomingMessage } from 'node:http';
import type { Ability } from '../auth/permissions.js';
import type { AccessToken } from '../auth/tokens.js';
import type { SandboxStore } from '../data/store.js';
import type { Role, TenantRecord, UserRecord } from '../data/types.js';
import type { ApiResponse } from '../http/responses.js';

export interface UserContext {
  store: SandboxStore;
  user: UserRecord;
  access: AccessToken;
  req: IncomingMessage;
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** Absolute URL of a path under /api, e.g. '/v1/customers' (for pagination links). */
  apiUrl(path: string): string;
  /** The parsed JSON body (400 on malformed JSON, 413 when too large). */
  readJson(): Promise<unknown>;
  now(): number;
}

export interface TenantContext extends UserContext {
  tenant: TenantRecord;
  role: Role;
}

type Handler<C> = (ctx: C) => ApiResponse | Promise<ApiResponse>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RouteBase {
  method: Method;
  /** Relative to /api; `{name}` segments become params. */
  pattern: string;
  /** Token scope required (`*` always passes). */
  scope?: string;
  /** Role ability required in the current tenant (tenant-scoped routes only). */
  ability?: Ability;
}

export type Route =
  | (RouteBase & { tenantScoped: false; handle: Handler<UserContext> })
  | (RouteBase & { tenantScoped: true; handle: Handler<TenantContext> });

/**
 * A route of the current tenant behind one permission, named once: the role needs the ability `noun.verb` and the
 * token the scope `noun:verb`, as every tenant route of the API pairs them.
 */
export function tenantRoute(
  method: Method,
  pattern: string,
  ability: Ability,
  handle: Handler<TenantContext>,
): Route {
  return { method, pattern, tenantScoped: true, scope: scopeOf(ability), ability, handle };
}

export const scopeOf = (ability: Ability): string => ability.replace('.', ':');

export function ok(data: unknown, status = 200): ApiResponse {
  return { status, body: { success: true, data } };
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'wrong-method'; allowed: string[] }
  | { kind: 'none' };

export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, path);
    if (params === undefined) continue;
    if (route.method === method) return { kind: 'found', route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: 'wrong-method', allowed } : { kind: 'none' };
}

function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const expected = pattern.split('/');
  const actual = path.replace(/\/+$/, '').split('/');
  if (expected.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of expected.entries()) {
    const value = actual[index] ?? '';
    if (segment.startsWith('{') && segment.endsWith('}')) {
      if (value === '') return undefined;
      params[segment.slice(1, -1)] = value;
    } else if (segment !== value) {
      return undefined;
    }
  }
  return params;
}
