// Requests that carry no token, such as the token exchange, are counted per client IP address in the API's limiter
// (the document: "unauthenticated requests ... are counted per IP address"), with the same headers and 429.
import type { IncomingMessage } from 'node:http';
import type { MountHandler } from '../dispatcher.js';
import { plainError, sendJson } from '../http/responses.js';
import type { RateLimiter } from './rate-limit.js';

/** The limiter's key of a caller known only by its address. */
export function ipCallerKey(req: IncomingMessage): string {
  return `ip:${req.socket.remoteAddress ?? 'unknown'}`;
}

/** `handle`, behind the limiter: the rate headers on every answer, a 429 with Retry-After once the window is spent. */
export function limitedPerIp(limiter: RateLimiter, handle: MountHandler): MountHandler {
  return (req, res, target) => {
    const rate = limiter.hit(ipCallerKey(req));
    for (const [name, value] of Object.entries(rate?.headers ?? {})) res.setHeader(name, value);
    if (rate && !rate.allowed) return sendJson(res, plainError(429, 'Too Many Attempts.'));
    return handle(req, res, target);
  };
}
