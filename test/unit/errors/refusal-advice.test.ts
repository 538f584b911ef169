// The advice after a 401 or 403: a role refusal goes to a clinic admin, a scope is named only when known to be
// needed, a sign-in's scopes are never narrowed, and CLINIC_TOKEN is to be replaced rather than logged in over.
import { describe, expect, it } from 'vitest';
import { errorLines } from '../../../src/cli/report-error.js';
import { refusalAdvice, type SignInFacts } from '../../../src/core/auth/refusal-advice.js';
import { parseApiError } from '../../../src/core/http/parse-error.js';

const LOGIN = 'clinic --profile prod login';
const refused = (message: string, request = { method: 'GET', path: '/v1/account-transaction-types' }) =>
  parseApiError(403, JSON.stringify({ message }), undefined, request);
const everything: SignInFacts = { loginCommand: LOGIN, scopes: ['openid', '*'] };
const narrow: SignInFacts = { loginCommand: LOGIN, scopes: ['openid', 'customers:read'] };
const envToken: SignInFacts = { loginCommand: LOGIN, envToken: true };
const personal: SignInFacts = { loginCommand: LOGIN };

const ADMIN = "your user's role in this clinic does not allow this: ask a clinic admin";

describe('a refusal by role', () => {
  it.each([
    'You do not have a role in this clinic',
    'This action is unauthorized.',
    'This lead is assigned to another salesperson.',
    'You do not have permission to do this.',
  ])('%j: ask a clinic admin, whatever the sign-in', (message) => {
    for (const signIn of [everything, narrow, envToken, personal, undefined])
      expect(refusalAdvice(refused(message), signIn)).toBe(ADMIN);
  });
});

describe('a refusal for a missing scope', () => {
  const scopeRefusal = refused('Invalid scope(s) provided.');

  it('names no scope the server did not name (none is invented from the path)', () => {
    for (const signIn of [everything, narrow, envToken, personal]) {
      const advice = refusalAdvice(scopeRefusal, signIn) ?? '';
      expect(advice).not.toMatch(/[a-z-]+:(read|write)/);
      expect(advice).toContain('a scope this request needs');
    }
  });

  it('a narrow sign-in is told to sign in with every scope, never with fewer than it has', () => {
    expect(refusalAdvice(scopeRefusal, narrow)).toBe(
      `the token lacks a scope this request needs; sign in again with every scope: ${LOGIN} --scopes "openid *"`,
    );
  });

  it('a scope the server names is named, and kept beside the scopes the sign-in has', () => {
    const named = refused('Missing scope: customers:write');
    expect(refusalAdvice(named, narrow)).toBe(
      `the token lacks the scope customers:write; sign in again keeping the scopes it has: ${LOGIN} --scopes "openid customers:read customers:write"`,
    );
    const inBody = parseApiError(
      403,
      JSON.stringify({ message: 'Invalid scope(s) provided.', scopes: ['leads:write'] }),
    );
    expect(refusalAdvice(inBody, narrow)).toContain('the scope leads:write');
  });

  it('the scope the API document gives (POST /v1/customers needs customers:write) is named', () => {
    const create = refused('Invalid scope(s) provided.', { method: 'POST', path: '/v1/customers' });
    expect(refusalAdvice(create, narrow)).toContain('the scope customers:write');
    expect(refusalAdvice(create, narrow)).toContain('--scopes "openid customers:read customers:write"');
  });

  it('a sign-in granted every scope is never told to sign in with one', () => {
    const advice = refusalAdvice(refused('Invalid scope(s) provided.'), everything) ?? '';
    expect(advice).toContain('granted every scope (*)');
    expect(advice).not.toContain('--scopes');
  });

  it('CLINIC_TOKEN: replace the token, do not log in', () => {
    const advice = refusalAdvice(scopeRefusal, envToken) ?? '';
    expect(advice).toBe(
      'the token in CLINIC_TOKEN lacks a scope this request needs: set CLINIC_TOKEN to a token that has it',
    );
  });
});

describe('a refusal whose words say neither', () => {
  const vague = refused('Forbidden');

  it('a sign-in with every scope cannot lack one: ask a clinic admin', () => {
    expect(refusalAdvice(vague, everything)).toBe(ADMIN);
  });

  it('a narrow sign-in hears both causes, and a way to widen its scopes', () => {
    expect(refusalAdvice(vague, narrow)).toBe(
      "either the token lacks a scope this request needs or your user's role in this clinic does not allow it: " +
        `ask a clinic admin; or sign in again with every scope: ${LOGIN} --scopes "openid *"`,
    );
  });

  it('a sign-in that holds the scope the API document names: the role', () => {
    const create = refused('Forbidden', { method: 'POST', path: '/v1/customers' });
    expect(refusalAdvice(create, { loginCommand: LOGIN, scopes: ['customers:write'] })).toBe(ADMIN);
  });
});

describe('a rejected token (401)', () => {
  const rejected = parseApiError(401, JSON.stringify({ message: 'Unauthenticated.' }));

  it('a stored sign-in: log in again', () => {
    expect(refusalAdvice(rejected, personal)).toBe(`run: ${LOGIN} (the token was rejected)`);
  });

  it('CLINIC_TOKEN: replace it, not a login', () => {
    const advice = refusalAdvice(rejected, envToken) ?? '';
    expect(advice).toContain('set CLINIC_TOKEN to a valid token');
    expect(advice).not.toContain('login');
  });

  it('printed as a hint under the error line', () => {
    expect(errorLines(rejected, { json: false, debug: false, signIn: envToken })).toEqual([
      'error: Unauthenticated. (HTTP 401)',
      'hint: the token in CLINIC_TOKEN was rejected: set CLINIC_TOKEN to a valid token (it is used as is, never refreshed)',
    ]);
  });
});

describe('other statuses have no such advice', () => {
  it.each([400, 404, 409, 422, 428, 500])('%i', (status) => {
    expect(refusalAdvice(parseApiError(status, '{"message":"x"}'), narrow)).toBeUndefined();
  });
});

describe('a 404', () => {
  it('naming a tenant: the tenants of the account are a command away', () => {
    const notYours = parseApiError(404, JSON.stringify({ message: 'Tenant not found.' }), undefined, {
      method: 'GET',
      path: '/v1/customers',
    });
    expect(refusalAdvice(notYours)).toBe(
      'the tenant may not be one of your account: clinic tenants list shows yours (--tenant ID or SLUG, or clinic tenants use)',
    );
    expect(errorLines(notYours, { json: false, debug: false }).at(-1)).toMatch(
      /^hint: the tenant may not be/,
    );
  });

  it('of a record: no advice, the error says it all', () => {
    const missing = parseApiError(
      404,
      JSON.stringify({ message: 'Customer not found.', error_code: 'RESOURCE_NOT_FOUND' }),
      undefined,
      { method: 'GET', path: '/v1/customers/9' },
    );
    expect(refusalAdvice(missing)).toBeUndefined();
  });
});
