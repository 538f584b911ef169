// Private-channel signatures: the app key and the one secret of a sandbox, used by /broadcasting/auth to sign and
// by the WebSocket server to check `auth = key:hex(hmac_sha256(secret, socket_id:channel_name))`.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export class ChannelAuthority {
  /** Fresh for every sandbox start and never handed out: only the sandbox signs. */
  private readonly secret = randomBytes(32).toString('hex');

  constructor(readonly key: string) {}

  /** The `auth` value a client sends with pusher:subscribe. */
  sign(socketId: string, channel: string): string {
    return `${this.key}:${this.digest(socketId, channel)}`;
  }

  /** Whether `auth` was signed by this sandbox for this very socket and channel. */
  verify(socketId: string, channel: string, auth: unknown): boolean {
    if (typeof auth !== 'string') return false;
    const separator = auth.indexOf(':');
    if (separator === -1 || auth.slice(0, separator) !== this.key) return false;
    const given = Buffer.from(auth.slice(separator + 1), 'utf8');
    const expected = Buffer.from(this.digest(socketId, channel), 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private digest(socketId: string, channel: string): string {
    return createHmac('sha256', this.secret).update(`${socketId}:${channel}`).digest('hex');
  }
}
