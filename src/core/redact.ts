// Keeps secrets out of anything printed: headers, URLs and JSON bodies.

const SECRET_HEADERS = new Set(['authorization', 'cookie', 'set-cookie', 'proxy-authorization', 'x-api-key']);
const SECRET_KEY = /token|secret|password|passwd|authorization|code_verifier|^code$|^auth$|api_key|cookie/i;
export const REDACTED = '***';
/** Keeps a known scheme visible (`Bearer ***`); anything else is hidden whole. */
const AUTH_SCHEME = /^(Bearer|Basic|Token|Digest)\s+.*$/is;

/** Headers with secrets hidden: by name, and any value holding one of `known` (the token in a custom header). */
export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
  known: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  const secrets = known.filter((secret) => secret.length >= 8);
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    const lower = name.toLowerCase();
    const holdsSecret = secrets.some((secret) => text.includes(secret));
    if (!SECRET_HEADERS.has(lower) && !SECRET_KEY.test(lower) && !holdsSecret) out[name] = text;
    else
      out[name] =
        lower === 'authorization' && AUTH_SCHEME.test(text)
          ? text.replace(AUTH_SCHEME, `$1 ${REDACTED}`)
          : REDACTED;
  }
  return out;
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    for (const key of [...parsed.searchParams.keys()]) {
      if (SECRET_KEY.test(key) || key === 'state') parsed.searchParams.set(key, REDACTED);
    }
    // userinfo (http://user:PW@host): neither part is shown.
    if (parsed.password) parsed.password = REDACTED;
    if (parsed.username) parsed.username = REDACTED;
    return parsed.toString();
  } catch {
    return url;
  }
}

/** A deep copy of a JSON value with the values of secret-looking keys replaced. */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, SECRET_KEY.test(key) ? REDACTED : redactJson(inner)]),
  );
}

/** Redacts a body given as text: JSON bodies key by key, anything else that looks like a bearer token. */
export function redactBodyText(text: string): string {
  try {
    return JSON.stringify(redactJson(JSON.parse(text)));
  } catch {
    return text.replace(/(bearer\s+)[\w.~+/=-]+/gi, `$1${REDACTED}`);
  }
}

/**
 * The secrets of this run (access and refresh tokens, CLINIC_TOKEN), registered where they are obtained and hidden
 * from every line written to stderr, whatever the server echoed them in: as they are, URL-encoded or JSON-escaped,
 * in any letter case. A short one (under 8 characters) is hidden where it stands as a word of its own, so that `at`
 * does not garble "configuration".
 */
const MIN_SECRET_LENGTH = 1;
const SHORT_SECRET = 8;
const secrets = new Set<string>();
/** Made when first needed (most runs never write a line to hide one in): V8 parses it when it is made. */
let secretPattern: RegExp | undefined;

export function registerSecret(...values: (string | undefined)[]): void {
  for (const value of values) {
    if (value === undefined || value.length < MIN_SECRET_LENGTH || secrets.has(value)) continue;
    secrets.add(value);
    secretPattern = undefined;
  }
}

/** Text with every registered secret, in any of its printed forms, replaced by `***`. */
export function redactSecrets(text: string): string {
  if (secrets.size === 0) return text;
  secretPattern ??= patternOf(secrets);
  return text.replace(secretPattern, REDACTED);
}

/**
 * A server's text cut to `max` characters for a message, its secrets of this run hidden first: cut first, a secret
 * the cut goes through would no longer be found whole, and most of it would show.
 */
export function clipRedacted(text: string, max: number): string {
  const hidden = redactSecrets(text);
  return hidden.length <= max ? hidden : `${hidden.slice(0, max)}… (${hidden.length - max} more characters)`;
}

/** A JSON-like value with every string in it (keys too) passed through redactSecrets. */
export function redactSecretsDeep(value: unknown): unknown {
  if (secrets.size === 0) return value;
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map(redactSecretsDeep);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [redactSecrets(key), redactSecretsDeep(inner)]),
  );
}

function patternOf(values: Iterable<string>): RegExp {
  const forms = new Map<string, boolean>(); // form → whether it is short
  for (const value of values) {
    const json = JSON.stringify(value).slice(1, -1);
    for (const form of [
      value,
      encodeURIComponent(value),
      new URLSearchParams({ v: value }).toString().slice(2), // form encoding: space as +, ~ as %7E…
      json,
      json.replaceAll('/', '\\/'), // PHP's json_encode escapes slashes
      asciiJson(json),
      asciiJson(json).replaceAll('/', '\\/'),
    ])
      forms.set(form, value.length < SHORT_SECRET);
  }
  // Longest first, so a form that contains another is hidden whole.
  const alternatives = [...forms.keys()]
    .sort((a, b) => b.length - a.length)
    .map((form) =>
      forms.get(form) ? `(?<![A-Za-z0-9])${escapeRegExp(form)}(?![A-Za-z0-9])` : escapeRegExp(form),
    );
  return new RegExp(alternatives.join('|'), 'gi');
}

/** JSON with every non-ASCII character as \uXXXX (as PHP and Python write it by default). */
const asciiJson = (json: string) =>
  json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
