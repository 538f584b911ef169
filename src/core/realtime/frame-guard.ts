// Which incoming realtime frames pusher-js can take. It trusts the server: a frame that is JSON but not an event
// object (`[]`, `{"event":1}`…) throws inside its message handler, under no caller of ours, and ends the process.

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
  const { event, channel } = frame as { event?: unknown; channel?: unknown };
  if (typeof event !== 'string' || UNUSED_EVENTS_READ_UNCHECKED.has(event)) return false;
  return channel === undefined || isChannelName(channel);
}

// pusher-js looks channels up in a plain object: `constructor`, `__proto__`… would find Object's own, and throw.
const isChannelName = (channel: unknown) => typeof channel === 'string' && !(channel in Object.prototype);
