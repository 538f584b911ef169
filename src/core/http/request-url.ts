// Every API request URL is built here: base_url joined with a path, and nothing that could lead off base_url's
// origin or out of its path (the token travels with every request).
import { UsageError } from '../errors.js';
import { trimEnd } from '../plain-text.js';

/** base_url, parsed once per client. */
export interface ApiBase {
  readonly origin: string;
  /** base_url's path without its trailing slash (`/api`, or '' for a bare host). */
  readonly prefix: string;
  /** Each path joined so far, checked once (a long export asks for one path a thousand times). */
  readonly joined: Map<string, JoinedPath>;
}

/** A path joined to base_url and checked: its pathname as sent, and the path below base_url. */
interface JoinedPath {
  pathname: string;
  path: string;
}

/** A built request address: the URL to send as it is, and its path below base_url (for the tenant rule, messages). */
export interface RequestUrl {
  /** The whole address, as sent. */
  href: string;
  origin: string;
  /** The request target: the pathname and the query. */
  target: string;
  /** The path below base_url's prefix, dot segments resolved, e.g. `/v1/customers`. */
  path: string;
}

/** The paths a client keeps checked (a run asks for a handful; a bound keeps a strange one from growing it). */
const JOINED_PATHS = 256;

export function apiBase(baseUrl: string): ApiBase {
  const url = new URL(baseUrl);
  return { origin: url.origin, prefix: trimEnd(url.pathname, '/'), joined: new Map() };
}

/**
 * What makes a path unfit to join to base_url, or undefined. Each of these would let a URL parser, a proxy or the
 * server read the path as something other than segments below base_url: control characters (tabs and line breaks
 * are silently dropped by the URL parser, so `/.\t./` becomes `/../`), backslashes (read as `/` in http URLs),
 * encoded slashes, backslashes and control characters (decoded by some servers: `..%2f`, `..%00`), empty segments (`//host` is a host to a resolver),
 * `;` (`/..;/` climbs on some servers), and a query or fragment inside the path.
 */
export function pathProblem(path: string): string | undefined {
  if (hasControlCharacter(path)) return 'a control character (tab, line break…)';
  if (path.includes('\\')) return 'a backslash';
  const encoded = percentCodes(path);
  if (encoded.some((code) => code === '2f' || code === '5c')) return 'an encoded slash or backslash';
  if (encoded.some((code) => code === '7f' || (code[0]! <= '1' && isHex(code[1]!))))
    return 'an encoded control character';
  if (path.includes('//')) return 'an empty segment (//)';
  if (path.includes(';')) return "a ';'";
  if (path.includes('?')) return 'a query (give it apart from the path)';
  if (path.includes('#')) return "a fragment ('#')";
  return undefined;
}

// Checked character by character: every request's path passes here (see plain-text.ts).

const hasControlCharacter = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
};

const isHex = (c: string) => (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');

/** The two characters after each `%` that has two after it, lower-cased, where both are digits 0-9 or letters a-f. */
function percentCodes(text: string): string[] {
  const codes: string[] = [];
  for (let at = text.indexOf('%'); at >= 0 && at + 2 < text.length; at = text.indexOf('%', at + 1)) {
    const code = text.slice(at + 1, at + 3).toLowerCase();
    if (code.length === 2 && isHex(code[0]!) && isHex(code[1]!)) codes.push(code);
  }
  return codes;
}

/**
 * base_url joined with `path` (relative to it, e.g. `/v1/customers`) and `query`. Dot segments are resolved (the
 * encoded ones too, `%2e%2e`, `.%2E`…) and the result must stay on base_url's origin and under its path, or a
 * usage error is thrown: nothing is sent. The query is URLSearchParams' own text, which a URL keeps as it is.
 */
export function buildRequestUrl(base: ApiBase, path: string, query?: URLSearchParams): RequestUrl {
  const joined = joinPath(base, path);
  const target = query?.size ? `${joined.pathname}?${query.toString()}` : joined.pathname;
  return { href: base.origin + target, origin: base.origin, target, path: joined.path };
}

function joinPath(base: ApiBase, path: string): JoinedPath {
  const known = base.joined.get(path);
  if (known) return known;
  const problem = pathProblem(path);
  if (problem) throw refused(path, `it holds ${problem}`);
  const url = new URL(base.origin + base.prefix + (path.startsWith('/') ? path : `/${path}`));
  const { pathname } = url;
  const inside = pathname === base.prefix || pathname.startsWith(`${base.prefix}/`);
  if (url.origin !== base.origin || !inside || pathname.includes('//'))
    throw refused(path, `it leads out of ${base.origin}${base.prefix}/`);
  if (base.joined.size >= JOINED_PATHS) base.joined.clear();
  const joined = { pathname, path: pathname.slice(base.prefix.length) || '/' };
  base.joined.set(path, joined);
  return joined;
}

/** An absolute address the token is to be sent to (e.g. realtime.auth_endpoint): base_url's origin only. */
export function sameOriginUrl(base: ApiBase, address: string, setting = 'the request address'): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new UsageError(`${setting} is not a URL: '${address}'`);
  }
  if (url.origin !== base.origin)
    throw new UsageError(
      `${setting} (${url.origin}) is not on base_url's origin (${base.origin}); the token is sent to base_url's origin only`,
    );
  return url;
}

function refused(path: string, why: string): UsageError {
  return new UsageError(
    `refused path '${JSON.stringify(path).slice(1, -1)}': ${why}; give a path below base_url, e.g. /v1/account`,
  );
}
