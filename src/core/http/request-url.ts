// Every API request URL is built here: base_url joined with a path, and nothing that could lead off base_url's
// origin or out of its path (the token travels with every request).
import { UsageError } from '../errors.js';

/** base_url, parsed once per client. */
export interface ApiBase {
  origin: string;
  /** base_url's path without its trailing slash (`/api`, or '' for a bare host). */
  prefix: string;
}

/** A built request address: the URL to send as it is, and its path below base_url (for the tenant rule, messages). */
export interface RequestUrl {
  url: URL;
  /** The path below base_url's prefix, dot segments resolved, e.g. `/v1/customers`. */
  path: string;
}

export function apiBase(baseUrl: string): ApiBase {
  const url = new URL(baseUrl);
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}

/**
 * What makes a path unfit to join to base_url, or undefined. Each of these would let a URL parser, a proxy or the
 * server read the path as something other than segments below base_url: control characters (tabs and line breaks
 * are silently dropped by the URL parser, so `/.\t./` becomes `/../`), backslashes (read as `/` in http URLs),
 * encoded slashes, backslashes and control characters (decoded by some servers: `..%2f`, `..%00`), empty segments (`//host` is a host to a resolver),
 * `;` (`/..;/` climbs on some servers), and a query or fragment inside the path.
 */
export function pathProblem(path: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'a control character (tab, line break…)';
  if (path.includes('\\')) return 'a backslash';
  if (/%(2f|5c)/i.test(path)) return 'an encoded slash or backslash';
  if (/%([01][0-9a-f]|7f)/i.test(path)) return 'an encoded control character';
  if (path.includes('//')) return 'an empty segment (//)';
  if (path.includes(';')) return "a ';'";
  if (path.includes('?')) return 'a query (give it apart from the path)';
  if (path.includes('#')) return "a fragment ('#')";
  return undefined;
}

/**
 * base_url joined with `path` (relative to it, e.g. `/v1/customers`) and `query`. Dot segments are resolved (the
 * encoded ones too, `%2e%2e`, `.%2E`…) and the result must stay on base_url's origin and under its path, or a
 * usage error is thrown: nothing is sent.
 */
export function buildRequestUrl(base: ApiBase, path: string, query?: URLSearchParams): RequestUrl {
  const problem = pathProblem(path);
  if (problem) throw refused(path, `it holds ${problem}`);
  const url = new URL(base.origin + base.prefix + (path.startsWith('/') ? path : `/${path}`));
  const { pathname } = url;
  const inside = pathname === base.prefix || pathname.startsWith(`${base.prefix}/`);
  if (url.origin !== base.origin || !inside || pathname.includes('//'))
    throw refused(path, `it leads out of ${base.origin}${base.prefix}/`);
  // One serialisation of the whole query (appending to url.searchParams re-serialises it at every key).
  if (query?.size) url.search = query.toString();
  return { url, path: pathname.slice(base.prefix.length) || '/' };
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
