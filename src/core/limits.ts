// Limits that keep a slow or hostile server from hanging the CLI or filling its memory.

/** A JSON answer larger than this is refused rather than read into memory. */
export const MAX_JSON_BYTES = 64 * 1024 * 1024;
/** A Retry-After longer than this is not waited for: the run ends (exit 9) saying when to come back. */
export const MAX_RETRY_AFTER_S = 120;
/** Answers nested deeper than this are refused: real records are a few levels deep; a deeper one is an attack. */
export const MAX_JSON_DEPTH = 512;
/** OAuth answers (discovery, token, revocation, userinfo, JWKS) and a channel authorization: a few KiB when honest. */
export const MAX_OAUTH_BYTES = 1024 * 1024;
/** One realtime (WebSocket) message: Pusher-protocol events are a few KiB; a larger one is refused, not buffered. */
export const MAX_REALTIME_MESSAGE_BYTES = 1024 * 1024;
