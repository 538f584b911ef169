// Limits that keep a slow or hostile server from hanging the CLI or filling its memory.

/** A JSON answer larger than this is refused rather than read into memory. */
export const MAX_JSON_BYTES = 64 * 1024 * 1024;
/** A downloaded PDF (an AI report) larger than this is refused, and nothing saved: a server must not fill the disk. */
export const MAX_PDF_BYTES = 256 * 1024 * 1024;
/** A Retry-After longer than this is not waited for: the run ends (exit 9) saying when to come back. */
export const MAX_RETRY_AFTER_S = 120;
/**
 * Objects and arrays in one JSON answer, at most: each costs memory once parsed (64 MiB of `{},` is 20 million of
 * them, gigabytes), where an honest page of 100 records holds a few thousand.
 */
export const MAX_JSON_CONTAINERS = 1_000_000;
/** Answers nested deeper than this are refused: real records are a few levels deep; a deeper one is an attack. */
export const MAX_JSON_DEPTH = 512;
/** OAuth answers (discovery, token, revocation, userinfo, JWKS) and a channel authorization: a few KiB when honest. */
export const MAX_OAUTH_BYTES = 1024 * 1024;
/** One realtime (WebSocket) message: Pusher-protocol events are a few KiB; a larger one is refused, not buffered. */
export const MAX_REALTIME_MESSAGE_BYTES = 1024 * 1024;
