// Where a bearer token may travel: https anywhere, clear-text http only to this machine (the sandbox).
import { UsageError } from './errors.js';

const LOOPBACK_NAMES = new Set(['localhost', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The URL when it is https, or http on a loopback host; otherwise a usage error naming the setting. */
export function requireSecureUrl(text: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${name} is not a URL: '${text}'`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  throw new UsageError(
    `${name} must use https (http only for 127.0.0.1, localhost or [::1]): the token would travel in clear text to '${url.host}'`,
  );
}
