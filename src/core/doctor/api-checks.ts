// The API with the profile's token: GET /v1/account, the tenant's setup state (428 → next step), and the
// rate-limit headroom the answers announced.
import { dataOf, getAccountRequest, paths } from '../api/resources.js';
import { refusalAdvice, type SignInFacts } from '../auth/refusal-advice.js';
import { loginCommand } from '../auth/session.js';
import { ApiError, AuthError } from '../errors.js';
import type { ApiResponse } from '../http/client.js';
import {
  type Check,
  type CheckResult,
  type DoctorDeps,
  doctorClient,
  fail,
  type Findings,
  httpLimit,
  ok,
  reason,
  skip,
  warn,
} from './check.js';
import { describeTenant, describeUser, readAccount } from './account-shape.js';
import { describeApiError, passingFailure, passingResult } from './passing.js';
import { isoTime, relative } from './duration.js';
import { readRateHeaders } from './rate-headers.js';

/** Remembers an answer's rate-limit headers for the rate-limit check. */
export function noteAnswer(found: Findings, response: Pick<ApiResponse, 'headers'>): void {
  found.answers++;
  if (readRateHeaders(response.headers)) found.rateHeaders = response.headers;
}

/** Why an API check cannot run yet, if it cannot. */
function blocked(found: Findings): string | undefined {
  return found.settingsBroken ?? found.unreachable ?? (found.noToken && `no usable token (${found.noToken})`);
}

/** What doctor knows of the sign-in, for the fix of a 401 or 403. */
async function signInFacts(deps: DoctorDeps, found: Findings): Promise<SignInFacts> {
  const session = await deps.session();
  return {
    loginCommand: loginCommand(found.settings!.profile),
    scopes: found.stored?.scopes,
    envToken: session.envToken !== undefined,
  };
}

/**
 * An API failure as a check line with its fix. One that may pass (5xx, 429, a reset, a timeout, also a refresh the
 * sign-in server failed) says so and sends nobody to their config or to sign in again.
 */
function apiFailure(
  name: string,
  request: string,
  error: unknown,
  signIn: SignInFacts,
  baseUrl: string | undefined,
): CheckResult {
  const login = signIn.loginCommand;
  const passing = passingFailure(error);
  if (passing) return passingResult(name, 'fail', request, passing);
  if (error instanceof ApiError) {
    const what = describeApiError(error);
    const advice = refusalAdvice(error, signIn);
    if (error.status === 401)
      return fail(name, `the token was rejected (${what})`, signIn.envToken ? advice : `run: ${login}`);
    if (error.status === 403) return fail(name, `refused (${what})`, advice);
    // Not there: base_url's path is not the API's (the tenant's own 404 is told apart by its check).
    if (error.status === 404)
      return fail(
        name,
        `${request}: not found (${what})`,
        `check base_url (${baseUrl}): it should be the API base, ending in /api`,
      );
    // An answer no wait will change (400, 405, 501…): what the server said is the lead.
    return fail(name, `${request}: ${what}`, '--debug shows the exchange');
  }
  if (error instanceof AuthError) return fail(name, reason(error), error.hint ?? `run: ${login}`);
  return fail(name, reason(error), 'check the network and base_url; --debug shows the exchange');
}

export const accountCheck: Check = {
  name: 'account',
  limitMs: (deps) => httpLimit(deps) + 1000,
  async run(deps, found) {
    const name = 'account';
    const why = blocked(found);
    if (why) return skip(name, why);
    const signIn = await signInFacts(deps, found);
    try {
      const response = await (await doctorClient(deps)).request(getAccountRequest());
      noteAnswer(found, response);
      const account = readAccount(dataOf<unknown>(response, 'the account'));
      if (!account) {
        found.accountBroken = `GET /v1/account did not answer with an account`;
        return fail(
          name,
          "GET /v1/account: the server's answer is not an account (no object with an id in 'data')",
          `check that base_url (${found.baseUrl}) is the Clinic API, ending in /api; --debug shows the answer`,
        );
      }
      found.tenants = account.tenants;
      const tenants = account.tenants.map(describeTenant).join(', ');
      return ok(name, `GET /v1/account: ${describeUser(account)}; tenants: ${tenants || 'none'}`, {
        user: { id: account.id, name: account.name ?? null, email: account.email ?? null },
        tenants: account.tenants,
      });
    } catch (error) {
      // What the checks that need the account say when they skip: a failure that may pass is named as one.
      const passing = passingFailure(error);
      found.accountBroken = passing
        ? `GET /v1/account failed for a moment (${passing.what}), so this cannot be told now`
        : 'GET /v1/account failed';
      return apiFailure(name, 'GET /v1/account', error, signIn, found.baseUrl);
    }
  },
};

export const tenantSetupCheck: Check = {
  name: 'tenant-setup',
  limitMs: (deps) => httpLimit(deps) + 1000,
  async run(deps, found) {
    const name = 'tenant-setup';
    const why = blocked(found) ?? found.accountBroken;
    if (why) return skip(name, why);
    const settings = found.settings!;
    const login = loginCommand(settings.profile);
    const setCommand = login.replace(/ login$/, ' tenants use');
    const tenant = settings.get('tenant');
    if (!tenant)
      return warn(
        name,
        'no tenant set: tenant-scoped commands (customers, chat…) need one',
        `run: ${setCommand} ID-OR-SLUG (clinic tenants list shows yours)`,
      );
    const known = found.tenants?.find((t) => String(t.id) === tenant);
    const label = known?.name ? `tenant ${tenant} (${known.name})` : `tenant ${tenant}`;
    if (found.tenants && !known)
      return fail(
        name,
        `${label} is not one of your tenants (${found.tenants.map((t) => t.id).join(', ') || 'none'})`,
        `run: ${setCommand} ID-OR-SLUG (clinic tenants list shows yours)`,
        { tenant },
      );
    try {
      // Every tenant-scoped endpoint answers 428 while setup is incomplete; this one is small and needs no scope.
      const response = await (
        await doctorClient(deps)
      ).request({
        method: 'GET',
        path: paths.transactionTypes,
        headers: { 'x-tenant': tenant },
      });
      noteAnswer(found, response);
      if (known?.is_active === false)
        return warn(
          name,
          `${label} answers, but is marked inactive`,
          'ask the clinic whether it is still in use',
          {
            tenant,
          },
        );
      return ok(name, `${label}: setup complete (GET ${paths.transactionTypes} answered)`, { tenant });
    } catch (error) {
      if (error instanceof ApiError && error.status === 428) {
        const next = error.nextStep;
        return fail(
          name,
          `${label}: setup incomplete (HTTP 428 ${error.code ?? 'SETUP_REQUIRED'})${next ? `; next step: ${next}` : ''}`,
          next
            ? `finish the setup in the clinic's admin panel: ${next}`
            : "finish the tenant's setup in the clinic's admin panel",
          { tenant, next_step: next ?? null },
        );
      }
      if (error instanceof ApiError && error.status === 404)
        return fail(
          name,
          `${label}: not found, or you are not a member (HTTP 404)`,
          `run: ${setCommand} ID-OR-SLUG`,
          {
            tenant,
          },
        );
      return apiFailure(
        name,
        `GET ${paths.transactionTypes}`,
        error,
        await signInFacts(deps, found),
        found.baseUrl,
      );
    }
  },
};

/** Fewer requests left than this share of the window: warn. */
const LOW_SHARE = 0.1;

export const rateLimitCheck: Check = {
  name: 'rate-limit',
  limitMs: () => 1000,
  async run(deps, found) {
    const name = 'rate-limit';
    if (found.answers === 0)
      return skip(name, blocked(found) ?? found.accountBroken ?? 'no answer from the API');
    const rate = found.rateHeaders ? readRateHeaders(found.rateHeaders) : undefined;
    if (!rate)
      return ok(name, 'no rate headers in the answers: the server announces no limit', {
        limit: null,
        remaining: null,
        reset_at: null,
      });
    const now = deps.clock.now();
    const resetAt = isoTime(rate.resetAt);
    const facts = { limit: rate.limit ?? null, remaining: rate.remaining, reset_at: resetAt ?? null };
    const left = `${rate.remaining}${rate.limit === undefined ? '' : ` of ${rate.limit}`} requests left`;
    if (rate.resetAt !== undefined && resetAt === undefined) {
      const header = found.rateHeaders?.['x-ratelimit-reset'] ?? '';
      return warn(
        name,
        `${left}; X-RateLimit-Reset (${header.length > 24 ? `${header.slice(0, 24)}…` : header}) is no readable time`,
        "the server sends a garbled X-RateLimit-Reset (seconds since 1970 expected): tell the API's operators",
        facts,
      );
    }
    const detail =
      resetAt === undefined ? left : `${left}; the window resets ${relative(rate.resetAt!, now)}`;
    const low =
      rate.limit === undefined ? rate.remaining <= 2 : rate.remaining <= Math.max(2, rate.limit * LOW_SHARE);
    if (low)
      return warn(
        name,
        `${detail}: little headroom`,
        'wait for the window to reset; every clinic process (and app) of this user shares the budget',
        facts,
      );
    return ok(name, detail, facts);
  },
};
