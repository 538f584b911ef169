// The /api pipeline: rate limit, injected faults, authentication, route match, tenant, scope, role, handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticateBearer, bearerToken } from '../auth/bearer.js';
import { roleAllows, scopesAllow } from '../auth/permissions.js';
import type { JwtAccessVerifier } from '../auth/jwt-access.js';
import type { AccessToken, TokenStore } from '../auth/tokens.js';
import type { SandboxStore } from '../data/store.js';
import type { RequestTarget } from '../dispatcher.js';
import { readJsonBody } from '../http/body.js';
import {
  ApiError,
  type ApiResponse,
  legacyError,
  plainError,
  sendJson,
  sendResponse,
  serverFault,
  unauthenticated,
} from '../http/responses.js';
import type { FaultInjector } from '../traffic/faults.js';
import { ipCallerKey } from '../traffic/ip-limit.js';
import type { RateLimiter } from '../traffic/rate-limit.js';
import { matchRoute, type Route, type TenantContext, type UserContext } from './route.js';
import { API_ROUTES } from './routes.js';
import { resolveTenant } from './tenant.js';

export const API_PREFIX = '/api';

export interface ApiDependencies {
  store: SandboxStore;
  tokens: TokenStore;
  /** Accepts the OpenID provider's JWT access tokens as well as personal access tokens. */
  jwtAccess?: JwtAccessVerifier;
  limiter: RateLimiter;
  faults: FaultInjector;
  /** Milliseconds every answer waits first, as a network's round trip would (0: none). */
  latencyMs?: number;
  /** http://host:port, known once the server listens. */
  origin(): string;
  now(): number;
  /** Aborted when the sandbox closes, to cut short slow-fault and latency delays. */
  lifetime: AbortSignal;
  routes?: readonly Route[];
}

export function createApiHandler(deps: ApiDependencies) {
  return async (req: IncomingMessage, res: ServerResponse, target: RequestTarget): Promise<void> => {
    // The request's way there and the answer's way back, before anything is looked at (--latency).
    if (deps.latencyMs && !(await pause(deps.latencyMs, deps.lifetime))) return;
    const access = await authenticateBearer(deps.tokens, deps.jwtAccess, bearerToken(req));
    const callerKey = access ? `user:${access.userId}` : ipCallerKey(req);
    const rate = deps.limiter.hit(callerKey);
    // Set on the response itself so every answer below, errors included, carries them.
    for (const [name, value] of Object.entries(rate?.headers ?? {})) res.setHeader(name, value);
    if (rate && !rate.allowed) return sendJson(res, plainError(429, 'Too Many Attempts.'));

    const fault = deps.faults.draw();
    if (fault.delayMs > 0 && !(await pause(fault.delayMs, deps.lifetime))) return;
    switch (fault.outcome) {
      case 'reset':
        req.socket.destroy();
        return;
      case '500':
        return sendJson(res, serverFault());
      case '503':
        return sendJson(res, { ...plainError(503, 'Service Unavailable.'), headers: { 'Retry-After': '1' } });
      case '429':
        return sendJson(res, injectedRateLimit(rate !== undefined, deps.now()));
    }

    let response: ApiResponse;
    try {
      response = await answer(deps, req, target, access);
    } catch (error) {
      // Known answers pass through; anything else is a bug in a handler and must not leak its stack.
      response = error instanceof ApiError ? error.response : serverFault();
    }
    // A lost answer: the work is done and stored, but the caller never hears of it.
    if (fault.outcome === 'lost') return void req.socket.destroy();
    sendResponse(res, response);
  };
}

async function answer(
  deps: ApiDependencies,
  req: IncomingMessage,
  target: RequestTarget,
  access: AccessToken | undefined,
): Promise<ApiResponse> {
  const path = target.path.slice(API_PREFIX.length) || '/';
  const method = req.method ?? 'GET';
  const match = matchRoute(deps.routes ?? API_ROUTES, method, path);
  const user = access && deps.store.user(access.userId);
  // Every versioned path needs a token, even one that does not exist.
  if ((match.kind === 'found' || path.startsWith('/v1/')) && (!access || !user)) return unauthenticated();
  if (match.kind === 'none') return legacyError(404, `The route ${target.path.slice(1)} could not be found.`);
  if (match.kind === 'wrong-method') {
    const message = `The ${method} method is not supported for route ${target.path.slice(1)}. Supported methods: ${match.allowed.join(', ')}.`;
    return { ...legacyError(405, message), headers: { Allow: match.allowed.join(', ') } };
  }
  if (!access || !user) return unauthenticated();

  const { route, params } = match;
  // Time-driven changes (erasure requests moving on) land before anything is read.
  deps.store.catchUp(deps.now());
  const base: UserContext = {
    store: deps.store,
    user,
    access,
    req,
    params,
    query: target.query,
    apiUrl: (apiPath) => `${deps.origin()}${API_PREFIX}${apiPath}`,
    readJson: () => readJsonBody(req),
    now: deps.now,
  };
  if (!route.tenantScoped) {
    if (route.scope !== undefined && !scopesAllow(access.scopes, route.scope)) return invalidScope();
    return route.handle(base);
  }
  const ctx: TenantContext = { ...base, ...resolveTenant(req, deps.store, user.id) };
  if (route.scope !== undefined && !scopesAllow(access.scopes, route.scope)) return invalidScope();
  if (route.ability !== undefined && !roleAllows(ctx.role, route.ability)) {
    return plainError(403, 'This action is unauthorized.');
  }
  return route.handle(ctx);
}

const invalidScope = () => plainError(403, 'Invalid scope(s) provided.');

const INJECTED_RETRY_AFTER_SECONDS = 1;

/**
 * The injected 429 (--faults 429=p) reads as a spent window: nothing remaining, reset when Retry-After says. With
 * limiting off there are no rate headers to correct.
 */
function injectedRateLimit(limiting: boolean, nowMs: number): ApiResponse {
  const headers: Record<string, string> = { 'Retry-After': String(INJECTED_RETRY_AFTER_SECONDS) };
  if (limiting) {
    headers['X-RateLimit-Remaining'] = '0';
    headers['X-RateLimit-Reset'] = String(Math.ceil(nowMs / 1000) + INJECTED_RETRY_AFTER_SECONDS);
  }
  return { ...plainError(429, 'Too Many Attempts.'), headers };
}

/** Waits, unless the sandbox closes first; false means stop (the socket is gone). */
async function pause(ms: number, lifetime: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal: lifetime });
    return true;
  } catch {
    return false;
  }
}
