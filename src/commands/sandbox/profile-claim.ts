// Whether `clinic sandbox start` may point a profile at itself: not while the profile points at another sandbox that is
// still running, whose user or scripts (and stored sign-in) would silently move to a new port and new data.
import type { Context } from '../../cli/context.js';
import {
  type ConfigData,
  dict,
  getPath,
  isRecord,
  profileOf,
  setPath,
} from '../../core/config/config-file.js';
import type { HttpTransport } from '../../core/http/transport.js';
import { isLoopbackHost } from '../../core/secure-url.js';

/** The longest a start waits on the profile's address: a port that hangs or trickles must not hold it up. */
export const PROBE_DEADLINE_MS = 1000;

/** Larger than any identity answer: more is not a sandbox talking. */
const MAX_IDENTITY_BYTES = 4096;

/**
 * The instance id of the clinic sandbox answering at `baseUrl` (see src/sandbox/identity.ts), or undefined: not http
 * on a loopback address, nothing listening, another user's process, something else answering, or no whole answer
 * within the deadline. Sends no credential, and asks nothing of an address off this machine.
 */
export async function sandboxAt(
  transport: HttpTransport,
  baseUrl: string,
  deadlineMs = PROBE_DEADLINE_MS,
): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname)) return undefined;
  // The sandbox's one entry (what the single executable bundles; loaded already by the start that asks).
  const { IDENTITY_PATH, SANDBOX_SERVICE } = await import('../../sandbox/index.js');
  const { exchange } = await import('../../core/http/transport/exchange.js');
  try {
    const answer = await exchange(
      transport,
      // Connection: close, so no kept-alive socket to the other sandbox lingers for as long as this one runs.
      {
        origin: url.origin,
        path: IDENTITY_PATH,
        method: 'GET',
        headers: { accept: 'application/json', connection: 'close' },
      },
      { deadlineMs, idleMs: deadlineMs, maxBytes: MAX_IDENTITY_BYTES },
    );
    if (answer.status !== 200 || answer.text === undefined) return undefined;
    const body: unknown = JSON.parse(answer.text);
    if (!isRecord(body) || body.service !== SANDBOX_SERVICE) return undefined;
    return typeof body.instance === 'string' && body.instance !== '' ? body.instance : undefined;
  } catch {
    return undefined; // refused, reset, timed out, too large, not JSON: not a sandbox that can be in use
  }
}

export interface OwnSandbox {
  /** This sandbox's instance id: a profile already pointing at it is no other sandbox's. */
  instance: string;
  /** What the profile gets: base_url, auth_url, client_id, tenant, realtime.* (undefined: left out). */
  values: Record<string, string | undefined>;
}

export type ProfileClaim =
  | { profile: string; written: true }
  /** Left alone: it points at `runningAt`, another sandbox still answering; `freeName` is a profile not in the file. */
  | { profile: string; written: false; runningAt: string; freeName: string };

/** Looks at most this often while other starts keep changing the profile between a look and the write (then: write). */
const MAX_LOOKS = 3;

/**
 * Points profile `name` at this sandbox (as `config set` would, the stored sign-in left where it is), unless it points
 * at another sandbox still running. What was checked is what is replaced: a profile changed meanwhile (another
 * start) is looked at again.
 */
export async function claimProfile(
  ctx: Context,
  name: string,
  own: OwnSandbox,
  probe: (baseUrl: string) => Promise<string | undefined> = async (baseUrl) =>
    sandboxAt(await ctx.transport(), baseUrl),
): Promise<ProfileClaim> {
  for (let look = 1; ; look++) {
    const data = await ctx.config(); // read again after each edit (editProfile forgets it)
    const seen = getPath(profileOf(data, name) ?? dict(), 'base_url');
    const answering = seen === undefined ? undefined : await probe(seen);
    if (seen !== undefined && answering !== undefined && answering !== own.instance)
      return { profile: name, written: false, runningAt: seen, freeName: freeProfileName(data, name) };
    let moved = false;
    await ctx.editProfile((profile) => {
      if (getPath(profile, 'base_url') !== seen && look < MAX_LOOKS) {
        moved = true;
        return;
      }
      for (const [key, value] of Object.entries(own.values)) setPath(profile, key, value);
    }, name);
    if (!moved) return { profile: name, written: true };
  }
}

/** `NAME-2`, `NAME-3`, … : the first that names no profile in the file (and is a valid name). */
export function freeProfileName(data: ConfigData, name: string): string {
  const stem = name.slice(0, 56);
  for (let n = 2; ; n++) if (profileOf(data, `${stem}-${n}`) === undefined) return `${stem}-${n}`;
}

/** The one line that says why the profile was left alone and how to reach this sandbox instead. */
export function leftAloneNote(claim: Extract<ProfileClaim, { written: false }>, baseUrl: string): string {
  return (
    `note: profile '${claim.profile}' left alone: it points at another sandbox, still running at ` +
    `${claim.runningAt}; to have a profile for this one, start it with --write-profile ${claim.freeName}, or use ` +
    `CLINIC_BASE_URL=${baseUrl} with the ready line's token as CLINIC_TOKEN`
  );
}
