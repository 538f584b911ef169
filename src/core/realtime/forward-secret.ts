// The secret --forward-to signs with: --forward-secret, else CLINIC_FORWARD_SECRET, else the one kept beside the
// checkpoint by an earlier run, else a new one (kept there when there is a checkpoint, so a restarted service signs
// as before and its receiver goes on verifying).
import { randomBytes } from 'node:crypto';
import { fchmodSync, fstatSync, readFileSync } from 'node:fs';
import { readUnlinked, replaceFile } from '../config/private-file.js';
import { UsageError } from '../errors.js';

export interface ForwardSecret {
  value: string;
  /** Where it came from; `generated` is new in this run (and says so once). */
  from: 'flag' | 'env' | 'kept' | 'generated';
  /** The file it is kept in (`kept`, or `generated` beside a checkpoint). */
  file?: string;
}

/** The file a generated secret is kept in, beside the checkpoint. */
export const secretFileOf = (checkpoint: string) => `${checkpoint}.secret`;

export function newForwardSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}

export async function forwardSecret(options: {
  flag?: string;
  env?: string;
  /** The checkpoint file, when there is one: a generated secret is kept beside it. */
  checkpoint?: string;
  /** Says that a file holding the secret was readable by others and has been made 0600. */
  notice(line: string): void;
}): Promise<ForwardSecret> {
  if (options.flag !== undefined) return { value: nonBlank(options.flag, '--forward-secret'), from: 'flag' };
  if (options.env !== undefined)
    return { value: nonBlank(options.env, 'CLINIC_FORWARD_SECRET'), from: 'env' };
  if (options.checkpoint === undefined) return { value: newForwardSecret(), from: 'generated' };
  const file = secretFileOf(options.checkpoint);
  const kept = readKept(file, options.notice);
  if (kept !== undefined) return { value: kept, from: 'kept', file };
  const value = newForwardSecret();
  await replaceFile(file, `${value}\n`);
  return { value, from: 'generated', file };
}

/** Set but blank is a mistake to say, never a reason to sign with something else (as for CLINIC_TOKEN). */
function nonBlank(value: string, name: string): string {
  if (value.trim() === '') throw new UsageError(`${name} is set but empty; give the endpoint's secret`);
  return value;
}

/**
 * The kept secret, or undefined when there is none yet; never through a symbolic link, never from a file of another
 * user's (one who may write in the folder could plant a secret they know); 0600 made sure of. Opened without
 * waiting: a FIFO planted at its place is refused, not waited on for ever.
 */
function readKept(file: string, notice: (line: string) => void): string | undefined {
  const refusal = {
    link: `${file} is a symbolic link; refusing to read a secret through it`,
    failed: (reason: string) => `cannot read the forward secret ${file}: ${reason}`,
  };
  return readUnlinked(file, refusal, (fd) => {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UsageError(`${file} is not a file; refusing to read a secret from it`);
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid)
      throw new UsageError(
        `${file} belongs to another user; refusing to sign with a secret they may know (remove it, or set CLINIC_FORWARD_SECRET)`,
      );
    const mode = stat.mode & 0o777;
    if ((mode & 0o077) !== 0) {
      fchmodSync(fd, 0o600);
      notice(`warning: ${file} was ${mode.toString(8)}, readable by others; now 0600`);
    }
    const value = readFileSync(fd, 'utf8').trim();
    return value === '' ? undefined : value;
  });
}
