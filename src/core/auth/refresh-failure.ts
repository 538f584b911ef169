// Why a refresh failed, as the user is told. The sign-in server refused it, or answered something that is no token
// (no access_token, another token_type, not JSON): the sign-in is over, exit 3 with the way to sign in again. It could
// not be reached, took too long or failed itself (5xx, 429): that may pass, and a new sign-in would not help (exit 1;
// 9 for 429 and 503, as for the API).
import { AuthError, CliError, NetworkError, ServerFailureError, UnreachableError } from '../errors.js';
import { clipRedacted } from '../redact.js';
import { refusalWithin } from './oauth/authorization-server.js';
import { UnusableTokenError } from './oauth/token-response.js';

/** A server's words in the error line: this much at most (the line itself is sanitized where it is printed). */
const MAX_SERVER_TEXT = 200;

/** openid-client's codes (oauth4webapi's) for an answer it read and would not take. */
const UNUSABLE_ANSWER = new Set([
  'OAUTH_RESPONSE_IS_NOT_CONFORM',
  'OAUTH_RESPONSE_IS_NOT_JSON',
  'OAUTH_PARSE_ERROR',
  'OAUTH_INVALID_RESPONSE',
  'OAUTH_UNSUPPORTED_OPERATION',
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
]);

interface Failure {
  code?: unknown;
  status?: unknown;
  message?: unknown;
  error?: unknown;
  error_description?: unknown;
  cause?: unknown;
}

/** Secrets of this run hidden before the cut (a cut through one would leave most of it to show). */
const clip = (text: string) => clipRedacted(text, MAX_SERVER_TEXT);
const words = (value: unknown) => (typeof value === 'string' && value !== '' ? clip(value) : undefined);

/** The HTTP status of the answer behind openid-client's error, when it had one. */
function statusOf(failure: Failure): number | undefined {
  if (typeof failure.status === 'number') return failure.status; // ResponseBodyError, WWWAuthenticateChallengeError
  return failure.cause instanceof Response ? failure.cause.status : undefined;
}

/** The OAuth error and its description: in the body (ResponseBodyError), or in a WWW-Authenticate challenge. */
function oauthError(failure: Failure): string | undefined {
  const challenge = Array.isArray(failure.cause)
    ? (failure.cause[0] as { parameters?: Failure } | undefined)?.parameters
    : undefined;
  const from = failure.code === 'OAUTH_WWW_AUTHENTICATE_CHALLENGE' ? (challenge ?? {}) : failure;
  const error = words(from.error);
  if (!error) return undefined;
  const description = words(from.error_description);
  return description ? `${error}: ${description}` : error;
}

/** What was wrong with an answer that is no refusal, in a few words after `the sign-in server`. */
function unusable(failure: Failure, status: number | undefined): string {
  const inner = failure.cause as Failure | undefined;
  switch (failure.code) {
    case 'OAUTH_RESPONSE_IS_NOT_JSON': {
      const type = failure.cause instanceof Response ? failure.cause.headers.get('content-type') : null;
      return `answered something other than JSON (${type ? `Content-Type ${clip(type)}` : 'no Content-Type'})`;
    }
    case 'OAUTH_PARSE_ERROR':
      return 'answered JSON that does not parse';
    case 'OAUTH_RESPONSE_IS_NOT_CONFORM':
      return `answered HTTP ${status ?? '?'}, not 200 with a token`;
    case 'OAUTH_UNSUPPORTED_OPERATION': {
      const body = (inner?.cause as { body?: { token_type?: unknown } } | undefined)?.body;
      const type = words(body?.token_type);
      return type ? `answered a token of type "${type}", not bearer` : 'answered a token clinic cannot use';
    }
    default: {
      // oauth4webapi's `"response" body "access_token" property must be a string`: the member and what it lacks.
      const said = typeof inner?.message === 'string' ? inner.message : String(failure.message);
      const member = /^"response" body "(\w+)" property (.*)$/.exec(said);
      return `answered no usable token (${member ? `${member[1]} ${member[2]}` : clip(said)})`;
    }
  }
}

/**
 * The error to throw for a failed refresh of `profile`; `loginHint` is the way to sign in again. Failures of our own
 * (an address refused, a cap, a deadline, a discovery document) are said as they are.
 */
export function refreshFailure(caught: unknown, profile: string, loginHint: string): Error {
  const failure = refusalWithin(caught);
  const over = (why: string) =>
    new AuthError(
      `could not refresh the sign-in of profile ${profile}: the sign-in server ${why}`,
      loginHint,
    );
  if (failure instanceof UnusableTokenError) return over(failure.message.replace(/^the sign-in server /, ''));
  if (failure instanceof CliError) return failure;
  const known = (failure ?? {}) as Failure;
  const status = statusOf(known);
  // The server's own trouble, or too many requests: trying again later may do, signing in again would not.
  if (status !== undefined && (status >= 500 || status === 429))
    return new ServerFailureError(
      `could not refresh the sign-in: the sign-in server answered HTTP ${status}; try again later`,
      status,
    );
  // Never followed (as the API's): a refresh token goes nowhere else; most likely auth_url is not the server's.
  if (status !== undefined && status >= 300 && status < 400)
    return new NetworkError(
      `could not refresh the sign-in: the sign-in server answered with a redirect (HTTP ${status}), which is not followed; check auth_url`,
    );
  const said = oauthError(known);
  if (said) return over(`refused it (HTTP ${status ?? '?'} ${said})`);
  if (status !== undefined && status >= 400) return over(`refused it (HTTP ${status})`);
  if (typeof known.code === 'string' && UNUSABLE_ANSWER.has(known.code)) return over(unusable(known, status));
  // Unreachable, timed out, cut off (our fetch's failures inside openid-client's error), or anything else.
  const message = `could not refresh the sign-in: ${(failure as Error | undefined)?.message ?? String(failure)}`;
  // Why it could not be reached goes with it: a reset may pass, a host that does not resolve will not.
  const ours = known.cause;
  if (ours instanceof UnreachableError) return new UnreachableError(message, ours.hint, ours.networkCode);
  return new NetworkError(message);
}
