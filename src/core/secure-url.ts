// Where a bearer token or patient data may travel: https/wss anywhere, clear text only to this machine (the sandbox).
import { UsageError } from './errors.js';
import { isDigits } from './plain-text.js';

const LOOPBACK_NAMES = new Set(['localhost', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
  if (LOOPBACK_NAMES.has(hostname)) return true;
  // 127.x.y.z, each of x, y and z one to three digits.
  const parts = hostname.split('.');
  return (
    parts.length === 4 &&
    parts[0] === '127' &&
    parts.slice(1).every((part) => part.length <= 3 && isDigits(part))
  );
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

/**
 * A realtime connection without TLS carries patient messages in clear text: allowed only to a loopback host, like
 * http for base_url. `host` is where the socket goes (realtime.host, or hosted Pusher's cluster host).
 */
export function requireSecureRealtime(host: string, tls: boolean, tlsFrom: string): void {
  if (tls || isLoopbackHost(host)) return;
  throw new UsageError(
    `${tlsFrom} turns TLS off, but realtime in clear text is allowed only to 127.0.0.1, localhost or [::1]: ` +
      `patient messages would travel unencrypted to '${host}'; set realtime.tls to true`,
  );
}
