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
