// Whose process answers on a loopback address: a credential sent in clear text to this machine (the sandbox's address,
// a port-forward) must reach a process of this user, not one another user started on the port after it stopped. Linux
// only, read from /proc/net/tcp or tcp6 (a fraction of a millisecond to 2 ms: asked only for http to a loopback
// address). The API's requests are checked on each new connection (requireOwnConnection, through the transport); the
// sign-in's, made through openid-client, before they are sent as well (requireOwnListener).
import { lazyRequire } from '../lazy-require.js';
import { NetworkError, UsageError } from '../errors.js';
import { isLoopbackHost } from '../secure-url.js';

/** The text of /proc/net/tcp or tcp6; undefined where there is none (no IPv6, /proc not mounted). */
export type TableReader = (file: '/proc/net/tcp' | '/proc/net/tcp6') => Promise<string | undefined>;

const fs = lazyRequire<typeof import('node:fs')>('node:fs');

/**
 * The table's listening sockets: the kernel lists them before the connections (a run's own, the thousands a busy
 * machine or a script's loop of runs leaves waiting) and makes each line only as it is read, so reading stops at the
 * first line that is not a listener. Read a little at a time: a larger read has the kernel go through every bucket of
 * its connection table to fill it (half a millisecond on an idle machine). Read at once (synchronously): through the
 * thread pool, each step waited for the run's next turn of the event loop and held its first request longer.
 */
const readTable: TableReader = async (file) => {
  const { openSync, readSync, closeSync } = fs();
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const chunk = Buffer.allocUnsafe(1024);
    let text = '';
    // Where the first line not yet looked at starts: after the header.
    let from = -1;
    for (let count = readSync(fd, chunk); count > 0; count = readSync(fd, chunk)) {
      text += chunk.toString('latin1', 0, count);
      if (from < 0 && (from = text.indexOf('\n') + 1) === 0) from = -1;
      // The header, then listeners ("0A" in the fourth field): a complete line in another state ends them.
      for (let end = from < 0 ? -1 : text.indexOf('\n', from); end !== -1; end = text.indexOf('\n', from)) {
        if (field(text.slice(from, end), 3) !== '0A') return text;
        from = end + 1;
      }
    }
    return text;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
};

/**
 * The uids of the sockets listening on `port` that a connection to loopback `host` (a URL's hostname: `127.0.0.1`,
 * `localhost`, `[::1]`) reaches: bound to its address, or to any address. Undefined off Linux, or where neither
 * table can be read.
 *
 * An IPv4 address is looked up in the IPv4 table first, and in the IPv6 one (a dual-stack `::` listener) only when no
 * listener there reaches it: Linux lets no two listeners whose addresses overlap share a port unless both are one
 * user's (SO_REUSEPORT), so a listener found settles whose the port is. An empty IPv6 table costs a walk through every
 * bucket of the kernel's (over a millisecond): the sandbox, on 127.0.0.1, never needs it read.
 */
export async function loopbackListenerUids(
  host: string,
  port: number,
  read: TableReader = readTable,
): Promise<number[] | undefined> {
  if (process.platform !== 'linux') return undefined;
  const { v4, v6, bound } = boundAddressesReaching(host);
  const uids: number[] = [];
  let tablesRead = 0;
  const look = (table: string | undefined) => {
    if (table === undefined) return;
    tablesRead++;
    for (let from = table.indexOf('\n') + 1, end = 0; from > 0 && from < table.length; from = end + 1) {
      end = table.indexOf('\n', from);
      if (end === -1) end = table.length;
      const line = table.slice(from, end);
      // sl, local_address (hex address:port), rem_address, st (0A: listening), tx:rx, tr:when, retrnsmt, uid
      const uid = field(line, 7);
      if (uid === '' || field(line, 3) !== '0A') continue;
      const [address = '', hexPort = ''] = field(line, 1).split(':');
      if (parseInt(hexPort, 16) === port && bound.has(address.toUpperCase())) uids.push(Number(uid));
    }
  };
  // A name neither way (none reaches here: isLoopbackHost) would have both tables read.
  if (v4 || !v6) look(await read('/proc/net/tcp'));
  if (v6 || uids.length === 0) look(await read('/proc/net/tcp6'));
  return tablesRead === 0 ? undefined : uids;
}

/**
 * The `index`th field (from 0) of a /proc/net line, fields parted by blanks: '' past its last. Read in place, not split:
 * every request to this machine reads the table, and a line has seventeen fields.
 */
function field(line: string, index: number): string {
  let at = 0;
  for (let n = 0; ; n++) {
    while (at < line.length && (line[at] === ' ' || line[at] === '\t')) at++;
    let end = at;
    while (end < line.length && line[end] !== ' ' && line[end] !== '\t') end++;
    if (n === index) return line.slice(at, end);
    if (end === line.length) return '';
    at = end;
  }
}

/**
 * The uid of the process at the far end of a connection this process accepted on 127.0.0.1 (`remote`: the
 * connection's remote address and port, `localPort` its own): the line of /proc/net/tcp whose local end is that
 * remote one, and whose remote end is this listener, is the connecting socket's, with its owner's uid. Undefined off
 * Linux, off IPv4 loopback, or where the table cannot be read or holds no such line. Read whole and at once: the
 * connecting socket's line can be anywhere in it.
 */
export function connectingUid(
  remote: { address?: string; port?: number },
  localPort: number,
  read: () => string | undefined = () => readWholeTable('/proc/net/tcp'),
): number | undefined {
  if (process.platform !== 'linux' || remote.port === undefined) return undefined;
  const address = remote.address?.startsWith('::ffff:') ? remote.address.slice(7) : remote.address;
  if (address === undefined || !/^127\.\d+\.\d+\.\d+$/.test(address)) return undefined;
  const end = (ip: string, port: number) =>
    `${word(ip.split('.').map(Number))}:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const from = end(address, remote.port);
  const to = end('127.0.0.1', localPort);
  for (const line of (read() ?? '').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length >= 8 && fields[1] === from && fields[2] === to) return Number(fields[7]);
  }
  return undefined;
}

/** A /proc/net table read whole; undefined where it cannot be. */
function readWholeTable(file: string): string | undefined {
  try {
    return fs().readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const ANY4 = '00000000';
const ANY6 = '0'.repeat(32);

/** A 32-bit word as /proc/net writes it: its four bytes (network order) in host order, hex. */
const word = (bytes: number[]) =>
  (LITTLE_ENDIAN ? [...bytes].reverse() : bytes)
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();

/**
 * The local addresses, as /proc/net writes them, of sockets a connection to `host` may reach, and whether it may go
 * over IPv4 (`v4`) or IPv6 (`v6`, `localhost` as `::1`).
 */
function boundAddressesReaching(host: string): { v4: boolean; v6: boolean; bound: Set<string> } {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  const v4 = name === 'localhost' ? ['127.0.0.1'] : /^\d+\.\d+\.\d+\.\d+$/.test(name) ? [name] : [];
  const v6 = name === 'localhost' || name === '::1';
  const bound = new Set<string>([ANY4, ANY6]);
  for (const address of v4) {
    const bytes = address.split('.').map(Number);
    bound.add(word(bytes));
    bound.add(`${ANY4}${ANY4}${word([0, 0, 0xff, 0xff])}${word(bytes)}`); // ::ffff:a.b.c.d
  }
  if (v6) bound.add(`${ANY4}${ANY4}${ANY4}${word([0, 0, 0, 1])}`); // ::1
  return { v4: v4.length > 0, v6, bound };
}

/**
 * The verdict on each clear-text loopback origin, with when it was asked: asked again after 10 s, as a long run (a
 * tail of days) may outlive the listener it was given (every credential of those 10 s waits for the same answer).
 */
const verdicts = new Map<string, { verdict: Promise<void>; at: number }>();
const VERDICT_MS = 10_000;

/**
 * Before `what` (a token, a refresh token, a sign-in's code) goes in clear text to a loopback `origin`: the process
 * listening there must be this user's, or root's (docker's port proxy; root can read this user's files anyway), else
 * a UsageError (exit 2) and nothing is sent. A stopped sandbox, or an ended port-forward to the API, leaves its port
 * to any user of the machine. Other origins (https, another host) are let be: TLS or the address vouch for them.
 */
export function requireOwnListener(origin: string, what: string, setting = 'base_url'): Promise<void> {
  // Not performance.now(): the first touch of `performance` loads perf_hooks, most of a millisecond of a run.
  const now = process.uptime() * 1000;
  let asked = verdicts.get(origin);
  if (!asked || now - asked.at > VERDICT_MS) {
    asked = { verdict: listenerVerdict(origin), at: now };
    asked.verdict.catch(() => undefined); // a refusal kept for later asks is no unhandled rejection
    verdicts.set(origin, asked);
  }
  return asked.verdict.catch((error: unknown) => {
    if (!(error instanceof ListenerOfAnotherUser)) throw error;
    throw new UsageError(refusal(origin, error.uid, `${what} is not sent to it`, setting));
  });
}

/** The line refusing to send (`refused`: what is not sent) to another user's listener at `origin`: exit 2. */
const refusal = (origin: string, uid: number, refused: string, setting: string) =>
  `${origin} is served by another user's process (uid ${uid}): ${refused} in clear text ` +
  `(a stopped sandbox leaves its port to anyone); start the sandbox again, or check ${setting}`;

/**
 * A connection refused before anything was written on it (requireOwnConnection): another user's process listens
 * where it went. Said of the connection (`nothing is sent`); `naming` says it of the credential that was to go.
 */
export class ConnectionToAnotherUser extends UsageError {
  constructor(
    readonly origin: string,
    readonly uid: number,
  ) {
    super(refusal(origin, uid, 'nothing is sent to it', 'base_url and auth_url'));
  }

  /** The refusal naming what was to go over the connection (`CLINIC_TOKEN`, the sign-in's token). */
  naming(what: string, setting = 'base_url'): UsageError {
    return new UsageError(refusal(this.origin, this.uid, `${what} is not sent to it`, setting));
  }
}

class ListenerOfAnotherUser extends Error {
  constructor(readonly uid: number) {
    super(`uid ${uid}`);
  }
}

async function listenerVerdict(origin: string): Promise<void> {
  const url = new URL(origin);
  const mine = process.getuid?.();
  if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname) || mine === undefined) return;
  const uids = await loopbackListenerUids(url.hostname, Number(url.port || 80));
  const other = uids?.find((uid) => uid !== mine && uid !== 0);
  if (other !== undefined) throw new ListenerOfAnotherUser(other);
}

/** A connection's far end, as node:net gives it once connected. */
export interface ConnectionEnds {
  remoteAddress?: string;
  remotePort?: number;
}

/**
 * Refuses a connection made to this machine unless the port it reached is listened on by this user's process (or
 * root's), before anything is written on it: NodeTransport checks every new plain-http connection to a loopback
 * address. A check before the connection (requireOwnListener) can name the credential, but a listener may appear after
 * it, or hide from its reads (a table whose listeners come and go as it is read resumes past one). Looked at once the
 * connection is made, the listeners of the address and port it reached are sound: while this user's listener holds
 * the port no other user's can (no two users' listeners share a port whose addresses overlap), and another user's
 * cannot make one of this user's appear. So a listener of another user's is refused (exit 2), and so is none at all,
 * read twice (exit 1): nothing is sent where its owner cannot be told.
 */
export async function requireOwnConnection(
  ends: ConnectionEnds,
  origin: string,
  read: TableReader = readTable,
): Promise<void> {
  const mine = process.getuid?.();
  if (process.platform !== 'linux' || mine === undefined) return;
  const { remoteAddress = '', remotePort = 0 } = ends;
  // An IPv4 address reached over an IPv6 socket reads `::ffff:127.0.0.1`.
  const address =
    remoteAddress.startsWith('::ffff:') && remoteAddress.includes('.')
      ? remoteAddress.slice(7)
      : remoteAddress;
  let uids = await loopbackListenerUids(address, remotePort, read);
  if (uids === undefined) return;
  if (uids.length === 0) uids = (await loopbackListenerUids(address, remotePort, read)) ?? [];
  if (uids.length === 0)
    throw new NetworkError(
      `cannot tell whose process answers on ${origin} (no listener on that port in /proc/net/tcp): nothing was sent to it`,
    );
  const other = uids.find((uid) => uid !== mine && uid !== 0);
  if (other !== undefined) throw new ConnectionToAnotherUser(origin, other);
}
