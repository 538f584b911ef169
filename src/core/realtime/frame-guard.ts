// Which incoming realtime frames pusher-js can take. It trusts the server: a frame that is JSON but not an event
// object (`[]`, `{"event":1}`…) throws inside its message handler, under no caller of ours, and ends the process;
// so does one nested thousands deep (its logger walks every event it gets, recursively). A frame, and the JSON text
// of its `data` (which pusher-js parses in turn), nest no deeper than an API answer may (MAX_JSON_DEPTH).
import { nestsDeeperThan } from '../json-depth.js';
import { MAX_JSON_DEPTH } from '../limits.js';

/** Events pusher-js reads unchecked, for features this CLI never uses: user sign-in, watchlists, subscriber counts. */
const UNUSED_EVENTS_READ_UNCHECKED: ReadonlySet<string> = new Set([
  'pusher:signin_success',
  'pusher_internal:watchlist_events',
  'pusher_internal:subscription_count',
]);

/**
 * Whether pusher-js can be handed this WebSocket message (text, or a Buffer for a binary frame) without throwing.
 * Text that is not JSON passes: pusher-js reports it (a MessageParseError, or a failed handshake) and reads on.
 */
export function pusherCanTake(data: unknown): boolean {
  let frame: unknown;
  try {
    frame = JSON.parse(String(data)); // as pusher-js parses it, a Buffer included
  } catch {
    return true;
  }
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) return false;
  const { event, channel, data: inner } = frame as { event?: unknown; channel?: unknown; data?: unknown };
  if (typeof event !== 'string' || UNUSED_EVENTS_READ_UNCHECKED.has(event)) return false;
  if (channel !== undefined && !isChannelName(channel)) return false;
  return !nestsDeeperThan(frame, MAX_JSON_DEPTH + 1) && !(typeof inner === 'string' && dataTooDeep(inner));
}

/** Whether `data` is JSON text nested deeper than MAX_JSON_DEPTH (text that is not JSON pusher-js keeps as text). */
function dataTooDeep(data: string): boolean {
  try {
    return nestsDeeperThan(JSON.parse(data));
  } catch {
    return false;
  }
}

// pusher-js looks channels up in a plain object: `constructor`, `__proto__`… would find Object's own, and throw.
const isChannelName = (channel: unknown) => typeof channel === 'string' && !(channel in Object.prototype);
