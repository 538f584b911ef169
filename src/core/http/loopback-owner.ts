// Whose process answers on a loopback address: a token sent in clear text to this machine (the sandbox's address)
// must reach a process of this user, not one another user started on the port after the sandbox stopped. Linux only,
// read from /proc/net/tcp and tcp6 (2 ms or so, hence asked only where it matters: see the client's guardOrigin).
import { readFile } from 'node:fs/promises';

/** The text of /proc/net/tcp or tcp6; undefined where there is none (no IPv6, /proc not mounted). */
export type TableReader = (file: '/proc/net/tcp' | '/proc/net/tcp6') => Promise<string | undefined>;

const readTable: TableReader = (file) => readFile(file, 'latin1').catch(() => undefined);

/**
 * The uids of the sockets listening on `port` that a connection to loopback `host` (a URL's hostname: `127.0.0.1`,
 * `localhost`, `[::1]`) reaches: bound to its address, or to any address. Undefined off Linux.
 */
export async function loopbackListenerUids(
  host: string,
  port: number,
  read: TableReader = readTable,
): Promise<number[] | undefined> {
  if (process.platform !== 'linux') return undefined;
  const bound = boundAddressesReaching(host);
  const uids: number[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6'] as const) {
    for (const line of ((await read(file)) ?? '').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl, local_address (hex address:port), rem_address, st (0A: listening), tx:rx, tr:when, retrnsmt, uid
      if (fields.length < 8 || fields[3] !== '0A') continue;
      const [address = '', hexPort = ''] = fields[1]!.split(':');
      if (parseInt(hexPort, 16) === port && bound.has(address.toUpperCase())) uids.push(Number(fields[7]));
    }
  }
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

/** The local addresses, as /proc/net writes them, of sockets a connection to `host` may reach. */
function boundAddressesReaching(host: string): Set<string> {
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
  return bound;
}
