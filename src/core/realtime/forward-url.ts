// Where `chat tail --forward-to` may send patient messages: https anywhere, clear text only to this machine.
import { UsageError } from '../errors.js';
import { isLoopbackHost } from '../secure-url.js';

/** The endpoint, checked before anything connects; a usage error (exit 2) in one line otherwise. */
export function forwardUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--forward-to is not a URL: '${text}'`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`--forward-to must be an http or https address, not '${url.protocol}'`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    throw new UsageError(
      `--forward-to must use https (http only for 127.0.0.1, localhost or [::1]): patient messages would travel ` +
        `in clear text to '${url.host}'`,
    );
  // node:http would drop them silently; the endpoint would then refuse every event for want of them.
  if (url.username || url.password)
    throw new UsageError(
      '--forward-to must not hold a user name or password: the endpoint verifies the signature',
    );
  return url;
}
