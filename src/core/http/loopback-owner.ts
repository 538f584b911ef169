// Whose process answers on a loopback port: a token sent in clear text to this machine (the sandbox's address) must
// reach a process of this user, not one another user started on the port after the sandbox stopped. Linux only,
// read from /proc/net/tcp and tcp6 (2 ms or so, hence asked only where it matters: see the client's checkListener).
import { readFile } from 'node:fs/promises';

/** The uids of the sockets listening on `port` that a connection to a loopback address may reach. */
export async function loopbackListenerUids(port: number): Promise<number[] | undefined> {
  if (process.platform !== 'linux') return undefined;
  const uids: number[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let table: string;
    try {
      table = await readFile(file, 'latin1');
    } catch {
      continue; // no IPv6, or /proc not mounted: what can be read is checked
    }
    for (const line of table.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl, local_address (hex address:port), rem_address, st (0A: listening), tx:rx, tr:when, retrnsmt, uid
      if (fields.length < 8 || fields[3] !== '0A') continue;
      const [address = '', hexPort = ''] = fields[1]!.split(':');
      if (parseInt(hexPort, 16) !== port || !reachableFromLoopback(address)) continue;
      uids.push(Number(fields[7]));
    }
  }
  return uids;
}

/**
 * Whether a socket bound to `address` (as /proc/net writes it: 32-bit words in host order, hex) takes connections
 * made to a loopback address: the wildcard (0.0.0.0, ::), 127.0.0.0/8, ::1 and ::ffff:127.0.0.0/104.
 */
function reachableFromLoopback(address: string): boolean {
  if (/^0+$/.test(address)) return true;
  if (address.length === 8) return firstByte(address) === '7F'; // 127.x.y.z
  const words = address.match(/.{8}/g) ?? [];
  if (words.length !== 4 || words[0] !== '00000000' || words[1] !== '00000000') return false;
  if (words[2] === '00000000' && words[3] === (LITTLE_ENDIAN ? '01000000' : '00000001')) return true; // ::1
  return words[2] === (LITTLE_ENDIAN ? 'FFFF0000' : '0000FFFF') && firstByte(words[3]!) === '7F'; // ::ffff:127.x.y.z
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A 32-bit word's first byte in network order, as /proc/net writes the word in host order. */
const firstByte = (word: string) => (LITTLE_ENDIAN ? word.slice(6, 8) : word.slice(0, 2));
