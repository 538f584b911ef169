// What to tell a user whose token was rejected (401) or whose request was refused (403): chosen from what the server
// said and what is known of the sign-in. A scope is named only when the server names it or the API document says the
// request needs it; a refusal by role is sent to a clinic admin; the advice never narrows the scopes a sign-in has.

/** What is known of the credentials that were refused. */
export interface SignInFacts {
  /** `clinic login` or `clinic --profile NAME login`. */
  loginCommand: string;
  /** Scopes of the stored OAuth sign-in; undefined for personal tokens and CLINIC_TOKEN (not known). */
  scopes?: string[];
  /** The token came from CLINIC_TOKEN: signing in again changes nothing, the variable must change. */
  envToken?: boolean;
}

/** The refused answer: its status, the server's sentence and body, and the request it answered. */
export interface Refusal {
  status: number;
  message: string;
  body?: unknown;
  request?: { method: string; path: string };
}

/** The scopes the API document says a request needs (clinic-api.md, Authentication 9); no other is assumed. */
const DOCUMENTED_SCOPES: { method: string; path: RegExp; scope: string }[] = [
  { method: 'POST', path: /^\/v1\/customers\/?$/, scope: 'customers:write' },
];

/** A scope as the API spells them (`customers:read`, `account-transaction-types:read`). */
const SCOPE_WORD = /\b[a-z][a-z0-9-]*:(?:read|write)\b/g;

/** Sentences of a refusal by role or permission in the tenant (Laravel's policy denial, membership, assignment). */
const ROLE_WORDING =
  /\b(role|permission|not a member|unauthori[sz]ed|not allowed|assigned to another|do not have access)\b/i;
/** Sentences of a refusal for a missing scope (Laravel Passport: "Invalid scope(s) provided."). */
const SCOPE_WORDING = /\bscopes?\b|\bscope\(s\)/i;

/** The scope the server names, in its sentence or in a `scope`/`scopes`/`required_scopes` field of its body. */
function scopeNamedByServer(refusal: Refusal): string | undefined {
  const body = typeof refusal.body === 'object' && refusal.body !== null ? refusal.body : {};
  const fields = ['required_scope', 'required_scopes', 'scope', 'scopes'].map(
    (key) => (body as Record<string, unknown>)[key],
  );
  const texts = [refusal.message, ...fields.flat().filter((v): v is string => typeof v === 'string')];
  for (const text of texts) {
    const found = text.match(SCOPE_WORD);
    if (found?.[0]) return found[0];
  }
  return undefined;
}

function documentedScope(request: Refusal['request']): string | undefined {
  if (!request) return undefined;
  const path = request.path.split('?')[0] ?? '';
  const method = request.method.toUpperCase();
  return DOCUMENTED_SCOPES.find((entry) => entry.method === method && entry.path.test(path))?.scope;
}

/** Why the server refused, as far as its words tell. */
function refusalKind(refusal: Refusal, signIn: SignInFacts | undefined): 'role' | 'scope' | 'either' {
  if (SCOPE_WORDING.test(refusal.message)) return 'scope';
  if (ROLE_WORDING.test(refusal.message)) return 'role';
  // A sign-in granted every scope cannot lack one: what is left is the user's role.
  if (signIn?.scopes?.includes('*')) return 'role';
  return 'either';
}

const ASK_ADMIN = "your user's role in this clinic does not allow this: ask a clinic admin";

/** Advice for a missing scope; `scope` when it is known. */
function scopeAdvice(scope: string | undefined, signIn: SignInFacts | undefined): string {
  const missing = scope ? `the scope ${scope}` : 'a scope this request needs';
  const login = signIn?.loginCommand ?? 'clinic login';
  if (signIn?.envToken)
    return `the token in CLINIC_TOKEN lacks ${missing}: set CLINIC_TOKEN to a token that has it`;
  const granted = signIn?.scopes;
  if (granted?.includes('*'))
    return `the server says the token lacks ${missing}, though this sign-in was granted every scope (*): run ${login} again`;
  if (granted && scope) {
    const wanted = [...new Set(['openid', ...granted, scope])].join(' ');
    return `the token lacks ${missing}; sign in again keeping the scopes it has: ${login} --scopes "${wanted}"`;
  }
  if (granted)
    return `the token lacks ${missing}; sign in again with every scope: ${login} --scopes "openid *"`;
  return `the token lacks ${missing}; sign in again with a token or a sign-in that has it: ${login}`;
}

/** The advice for a 401 or 403 answer (undefined for any other status); a command to run starts with `run:`. */
export function refusalAdvice(refusal: Refusal, signIn?: SignInFacts): string | undefined {
  const login = signIn?.loginCommand ?? 'clinic login';
  if (refusal.status === 401)
    return signIn?.envToken
      ? 'the token in CLINIC_TOKEN was rejected: set CLINIC_TOKEN to a valid token (it is used as is, never refreshed)'
      : `run: ${login} (the token was rejected)`;
  // The answer for a tenant that is not the user's is not shown in the API document: a 404 naming a tenant is read so.
  if (refusal.status === 404 && /\btenant\b/i.test(refusal.message))
    return 'the tenant may not be one of your account: clinic tenants list shows yours (--tenant ID or SLUG, or clinic tenants use)';
  if (refusal.status !== 403) return undefined;
  const kind = refusalKind(refusal, signIn);
  const scope = scopeNamedByServer(refusal) ?? documentedScope(refusal.request);
  // The sign-in holds the scope the request needs: what is left is the role.
  if (kind === 'role' || (scope && signIn?.scopes?.includes(scope))) return ASK_ADMIN;
  if (kind === 'scope') return scopeAdvice(scope, signIn);
  const token = signIn?.envToken ? 'the token in CLINIC_TOKEN' : 'the token';
  const missing = scope ? `the scope ${scope}` : 'a scope this request needs';
  const retry = signIn?.scopes ? `; or sign in again with every scope: ${login} --scopes "openid *"` : '';
  return `either ${token} lacks ${missing} or your user's role in this clinic does not allow it: ask a clinic admin${retry}`;
}
