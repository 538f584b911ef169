// Whose process answers on a loopback address: a credential sent in clear text to this machine (the sandbox's address,
// a port-forward) must reach a process of this user, not one another user started on the port after it stopped. Linux
// only, read from /proc/net/tcp or tcp6 (a fraction of a millisecond to 2 ms: asked only for http to a loopback address,
// requireOwnListener).
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
    for (let count = readSync(fd, chunk); count > 0; count = readSync(fd, chunk)) {
      text += chunk.toString('latin1', 0, count);
      // The header, then listeners ("0A" in the fourth field): a complete line in another state ends them.
      const lines = text.split('\n').slice(1, -1);
      if (lines.some((line) => line.trim().split(/\s+/)[3] !== '0A')) break;
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
 * `localhost`, `[::1]`) reaches: bound to its address, or to any address. Undefined off Linux.
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
  const look = (table: string | undefined) => {
    for (const line of (table ?? '').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl, local_address (hex address:port), rem_address, st (0A: listening), tx:rx, tr:when, retrnsmt, uid
      if (fields.length < 8 || fields[3] !== '0A') continue;
      const [address = '', hexPort = ''] = fields[1]!.split(':');
      if (parseInt(hexPort, 16) === port && bound.has(address.toUpperCase())) uids.push(Number(fields[7]));
    }
  };
  // A name neither way (none reaches here: isLoopbackHost) would have both tables read.
  if (v4 || !v6) look(await read('/proc/net/tcp'));
  if (v6 || uids.length === 0) look(await read('/proc/net/tcp6'));
  return uids;
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
    throw new UsageError(
      `${origin} is served by another user's process (uid ${error.uid}): ${what} is not sent to it in clear text ` +
        `(a stopped sandbox leaves its port to anyone); start the sandbox again, or check ${setting}`,
    );
  });
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

/** A connection's two ends, as node:net gives them once it is connected. */
export interface ConnectionEnds {
  localAddress?: string;
  localPort?: number;
  remoteAddress?: string;
  remotePort?: number;
}

/** The 16 bytes of an IPv6 address (`::1`, `::ffff:127.0.0.1`); undefined for anything else. */
function ipv6Bytes(address: string): number[] | undefined {
  let text = address;
  const tail: number[] = [];
  const v4 = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    text = `${v4[1]}0:0`;
    tail.push(...v4[2]!.split('.').map(Number));
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const head = groups(halves[0]);
  const rest = groups(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return undefined;
  const words = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  if (words.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffff)) return undefined;
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** An address and port as /proc/net/tcp6 writes them: four host-order words, `:`, the port in hex. */
function procAddress6(bytes: number[], port: number): string {
  let text = '';
  for (let at = 0; at < 16; at += 4) text += word(bytes.slice(at, at + 4));
  return `${text}:${port.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * How /proc/net writes an end of the connection, in each table it may be in: an IPv4 address in `tcp`, and in `tcp6`
 * as `::ffff:a.b.c.d` (a dual-stack listener's side); an IPv6 one in `tcp6` only.
 */
function procForms(address: string, port: number): { tcp: string[]; tcp6: string[] } {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const plain = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(plain)) {
    const bytes = plain.split('.').map(Number);
    return {
      tcp: [`${word(bytes)}:${hexPort}`],
      tcp6: [procAddress6([...new Array<number>(10).fill(0), 0xff, 0xff, ...bytes], port)],
    };
  }
  const bytes = ipv6Bytes(address);
  return { tcp: [], tcp6: bytes ? [procAddress6(bytes, port)] : [] };
}

/** The whole table (connections too), read until `found` says the line sought has been read, or to its end. */
function readWholeTable(
  file: '/proc/net/tcp' | '/proc/net/tcp6',
  found: (text: string) => boolean,
): string | undefined {
  const { openSync, readSync, closeSync } = fs();
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const chunk = Buffer.allocUnsafe(16_384);
    let text = '';
    for (let count = readSync(fd, chunk); count > 0; count = readSync(fd, chunk)) {
      text += chunk.toString('latin1', 0, count);
      if (found(text)) break;
    }
    return text;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The uid of the process on the far end of a connection this process made to this machine: the far end's line in
 * /proc/net (its local address is our remote one, its remote address ours), which carries its listener's owner, the
 * accepted socket's or, before the accept, the pending one's. `undefined`: not found, or no /proc here.
 */
export function farEndUid(ends: ConnectionEnds, read = readWholeTable): number | undefined | 'no table' {
  const { localAddress, localPort, remoteAddress, remotePort } = ends;
  if (!localAddress || !localPort || !remoteAddress || !remotePort) return undefined;
  const far = procForms(remoteAddress, remotePort);
  const near = procForms(localAddress, localPort);
  let tables = 0;
  for (const [file, locals, remotes] of [
    ['/proc/net/tcp', far.tcp, near.tcp],
    ['/proc/net/tcp6', far.tcp6, near.tcp6],
  ] as const) {
    if (locals.length === 0) continue;
    // `sl local rem st ...`: a line whose local and remote are these, fields 1 and 2.
    const sought = locals.flatMap((l) => remotes.map((r) => ` ${l} ${r} `));
    const text = read(file, (so) => sought.some((line) => so.includes(line)));
    if (text === undefined) continue;
    tables++;
    for (const line of text.split('\n')) {
      const fields = line.trim().split(/\s+/);
      if (fields.length >= 8 && sought.includes(` ${fields[1]} ${fields[2]} `)) return Number(fields[7]);
    }
  }
  return tables === 0 ? 'no table' : undefined;
}

/**
 * Refuses a connection to a loopback address whose far end is another user's process, before anything is written on
 * it (NodeTransport checks every new plain-http connection to this machine). The listener check above says so early
 * and names the credential; this one is the guarantee: it looks at the connection itself, after it is made, so a
 * listener that appears after that check, or that a busy table hid from it, is caught too. A far end the table does
 * not show (read twice) is refused as well: nothing is sent where its owner cannot be told.
 */
export function requireOwnFarEnd(ends: ConnectionEnds, origin: string, read = readWholeTable): void {
  const mine = process.getuid?.();
  if (process.platform !== 'linux' || mine === undefined) return;
  let uid = farEndUid(ends, read);
  if (uid === undefined) uid = farEndUid(ends, read);
  if (uid === 'no table') return;
  if (uid === undefined)
    throw new NetworkError(
      `cannot tell whose process answers on ${origin} (the connection is not in /proc/net/tcp): nothing was sent to it`,
    );
  if (uid !== mine && uid !== 0)
    throw new UsageError(
      `${origin} is served by another user's process (uid ${uid}): nothing is sent to it in clear text (a stopped ` +
        'sandbox leaves its port to anyone); start the sandbox again, or check base_url and auth_url',
    );
}
