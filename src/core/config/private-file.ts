// Reads and writes files only the user may read (dir 0700, file 0600), atomically and never through a symlink.

import { closeSync, constants, fchmodSync, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { lazyRequire } from '../lazy-require.js';
import { makeFolder } from '../make-folder.js';
import { shellWord } from '../system-error.js';

// Reads are synchronous (small files, read once at start-up); writes load fs/promises and crypto when they happen.
const crypto = lazyRequire<typeof import('node:crypto')>('node:crypto');
const fsp = lazyRequire<typeof import('node:fs/promises')>('node:fs/promises');

export class UnsafeFileError extends Error {
  override name = 'UnsafeFileError';
}

/** The user running clinic (undefined where the system has no user ids: Windows). */
const uid = process.getuid?.();

/**
 * Why a file or folder of clinic's own must not be used: another user owns it, so what it holds or leads to is theirs
 * to choose (root running clinic with another user's HOME would write where they point). Undefined when it is the
 * user's.
 */
export function anotherUsers(path: string, stat: Pick<Stats, 'uid'>): string | undefined {
  return uid === undefined || stat.uid === uid
    ? undefined
    : `${path} belongs to another user (uid ${stat.uid})`;
}

/** The way on from another user's config: theirs is used by running as them (sudo -E keeps their HOME). */
const OWN_FOLDER = ': run clinic as that user, or set CLINIC_CONFIG_DIR to a folder of your own';

/**
 * Why a file clinic keeps its state in (a bulk journal, a chat checkpoint) must not be trusted: another user's, or
 * one others may write to, so what it says may not be the user's. Undefined when it is the user's alone.
 */
export function othersCouldWrite(path: string, stat: Pick<Stats, 'uid' | 'mode'>): string | undefined {
  const owner = anotherUsers(path, stat);
  if (owner) return owner;
  if (uid !== undefined && (stat.mode & 0o022) !== 0)
    return `${path} may be written by other users (mode ${(stat.mode & 0o777).toString(8)})`;
  return undefined;
}

/**
 * A folder of clinic's own (config, rate-limit budgets), made 0700 if missing and tightened to 0700 if others could
 * enter it, through its descriptor: what is checked and changed is what was opened. Refused when it is not a folder
 * or not the user's.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await makeFolder(dir);
  // The directory may be a symlink (dotfile managers do that); its target is what must be private.
  let handle: import('node:fs/promises').FileHandle | undefined;
  try {
    handle = await fsp().open(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
  } catch {
    // A folder cannot be opened everywhere (Windows): checked by its name there.
  }
  try {
    const stat = handle ? await handle.stat() : await fsp().stat(dir);
    if (!stat.isDirectory()) throw new UnsafeFileError(`${dir} is not a directory`);
    const owner = anotherUsers(dir, stat);
    if (owner) throw new UnsafeFileError(`${owner}; refusing to keep clinic's files in it${OWN_FOLDER}`);
    if ((stat.mode & 0o077) !== 0) await (handle ? handle.chmod(0o700) : fsp().chmod(dir, 0o700));
  } finally {
    await handle?.close();
  }
}

/** Says once per file and run that its modes were loose and have been tightened. */
export type ModeNotice = (line: string) => void;
const tightened = new Set<string>();

/**
 * The file (open as `fd`) and its folder must be the user's, as ssh wants of its own: another user's is refused, and
 * so is a file others may write to (what it says, an address tokens go to, may not be the user's). Others may read
 * them (0644, a 0755 directory): tightened to 0600/0700, each through its descriptor, and said once.
 */
function tightenModes(path: string, fd: number, notice?: ModeNotice): void {
  const dir = dirname(path);
  const fileStat = fstatSync(fd);
  const owner = anotherUsers(path, fileStat);
  if (owner) throw new UnsafeFileError(`${owner}; refusing to use it${OWN_FOLDER}`);
  const writable = othersCouldWrite(path, fileStat);
  if (writable)
    throw new UnsafeFileError(
      `${writable}, so what it says may not be yours; refusing to use it, as ssh refuses such a config: check ` +
        `it, then run chmod 600 ${shellWord(path)}`,
    );
  let dirFd: number | undefined;
  try {
    dirFd = openSync(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
  } catch {
    // A folder cannot be opened everywhere (Windows): left as it is there.
  }
  try {
    const dirStat = dirFd === undefined ? undefined : fstatSync(dirFd);
    const dirOwner = dirStat && anotherUsers(dir, dirStat);
    if (dirOwner) throw new UnsafeFileError(`${dirOwner}; refusing to use ${path}${OWN_FOLDER}`);
    const loose: string[] = [];
    if ((fileStat.mode & 0o077) !== 0) loose.push(`${path} was ${(fileStat.mode & 0o777).toString(8)}`);
    if (dirStat && (dirStat.mode & 0o077) !== 0)
      loose.push(`${dir} was ${(dirStat.mode & 0o777).toString(8)}`);
    if (loose.length === 0) return;
    if ((fileStat.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    if (dirFd !== undefined && dirStat && (dirStat.mode & 0o077) !== 0) fchmodSync(dirFd, 0o700);
    if (!tightened.has(path)) notice?.(`warning: ${loose.join(' and ')}, readable by others; now 0600/0700`);
    tightened.add(path);
  } finally {
    if (dirFd !== undefined) closeSync(dirFd);
  }
}

/** The file's text, or undefined when it does not exist. Refuses a symlink; tightens loose modes. */
export async function readPrivateFile(path: string, notice?: ModeNotice): Promise<string | undefined> {
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      tightenModes(path, fd, notice);
      return readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new UnsafeFileError(`${path} is a symbolic link; refusing to follow it`);
    throw error;
  }
}

/** What a refused open says: `link` when `path` is a symbolic link, `failed(reason)` on any other error. */
export interface OpenRefusal {
  link: string;
  failed: (reason: string) => string;
}

/**
 * Opens a file the user names for reading, never through a symbolic link and without waiting (a FIFO planted there
 * is not waited on), and gives its descriptor to `read` (closed after): undefined when there is no such file, a
 * UsageError saying `refusal` when it cannot be opened.
 */
export function readUnlinked<T>(path: string, refusal: OpenRefusal, read: (fd: number) => T): T | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new UsageError(refusal.link);
    throw new UsageError(refusal.failed((error as Error).message));
  }
  try {
    return read(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes through a 0600 temporary file and a rename, so readers never see half a file. */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  await ensurePrivateDir(dirname(path));
  await replaceFile(path, text);
}

/**
 * Replaces a file by a 0600 one through a temporary file and a rename, leaving its folder's modes as they are (a
 * file the user names, e.g. a chat checkpoint, may live in a folder others read: that is the user's to decide).
 */
export async function replaceFile(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  const existing = await fsp()
    .lstat(path)
    .catch(() => undefined);
  if (existing?.isSymbolicLink())
    throw new UnsafeFileError(`${path} is a symbolic link; refusing to write through it`);
  const temp = join(dir, `.${basename(path)}.${crypto().randomBytes(6).toString('hex')}.tmp`);
  const handle = await fsp().open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await fsp().rm(temp, { force: true }); // a full disk must not leave half a secret behind
    throw error;
  }
  await handle.close();
  try {
    await fsp().rename(temp, path);
  } catch (error) {
    await fsp().rm(temp, { force: true });
    throw error;
  }
}
