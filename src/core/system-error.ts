// A file or folder the system refused (a config folder that is a file, a journal on a read-only disk), in words with
// what to look at, never as Node's raw `ENOTDIR: not a directory, open '…'`.
import { dirname } from 'node:path';

/** What the failed call was doing, as a verb taking the path. */
const DOING: Record<string, string> = {
  open: 'open',
  read: 'read',
  write: 'write',
  mkdir: 'create the folder',
  rmdir: 'remove the folder',
  rename: 'replace',
  unlink: 'remove',
  stat: 'look at',
  lstat: 'look at',
  fstat: 'look at',
  scandir: 'list',
  chmod: 'change the mode of',
  utime: 'touch',
  utimes: 'touch',
  fchmod: 'change the mode of',
  copyfile: 'copy',
  fsync: 'write',
  fdatasync: 'write',
};

/** A path as a shell takes it in a command to paste: quoted when it holds anything but plain characters. */
export function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

/** Why, for the error codes a user can act on, with what to run. */
function why(code: string, path: string): string | undefined {
  const folder = shellWord(dirname(path));
  switch (code) {
    case 'ENOTDIR':
      return `a part of that path is a file, not a folder (run: ls -ld ${folder} and its parents; move the file away, or choose another folder)`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied (run: ls -ld ${folder} and its parents: their owners and modes)`;
    case 'EISDIR':
      return 'it is a folder, not a file';
    case 'ENOENT':
      return 'there is no such file or folder';
    case 'EEXIST':
      return 'it exists already';
    case 'ELOOP':
      return 'it is a loop of symbolic links';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'the disk is full (or the quota reached)';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENAMETOOLONG':
      return 'the name is too long';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many files are open (run: ulimit -n)';
    default:
      return undefined;
  }
}

/**
 * Why a file system call on `path` failed, in words with what to run where the code is one a user can act on; the
 * error's code (`EIO`) otherwise.
 */
export function systemReason(error: unknown, path: string): string {
  const { code, message } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof code !== 'string') return String(message ?? error);
  return why(code, path) ?? code;
}

/**
 * The message of a file system error Node raised (its `code`, `syscall` and `path` set) in words: `cannot open
 * /x/config.json: a part of that path is a file, not a folder (run: …)`. Undefined for any other error.
 */
export function systemErrorMessage(error: unknown): string | undefined {
  const { code, syscall, path } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof code !== 'string' || typeof syscall !== 'string' || typeof path !== 'string') return undefined;
  const reason = why(code, path);
  const doing = DOING[syscall];
  if (!reason || !doing) return undefined;
  return `cannot ${doing} ${path}: ${reason}`;
}
