// A native addon shipped inside the single executable (the keyring's), loaded from a private copy: process.dlopen
// needs a file. The copy is written once to a folder of the user's cache that only the user can enter (0700), as a
// file only the user can read (0500), through a temporary file renamed into place, so a half-written one is never
// seen. Before every load its sha256 must be the one recorded at build time: a copy that differs (damaged, replaced,
// a symbolic link, another user's) is rewritten, and where no private copy can be made nothing is loaded.
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface NativeBinary {
  /** A file name for it (`keyring`). */
  name: string;
  /** The sha256 of its bytes, recorded at build time (hex). */
  sha256: string;
  /** Its bytes, from the executable's assets. */
  bytes(): Uint8Array;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const uid = process.getuid?.();

/** Where the copies live: $XDG_CACHE_HOME/clinic/native, by default ~/.cache/clinic/native (as bin's caches). */
export function nativeCacheDir(env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'clinic', 'native');
}

/** The folder, made private to this user; refused when it is not a folder of this user's. */
function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw new Error(`${dir} is not a folder`);
  if (uid !== undefined && stat.uid !== uid) throw new Error(`${dir} belongs to another user`);
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** Whether `file` is this user's regular file (no link followed), writable by no one else, with these bytes. */
function holds(file: string, expected: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return false; // missing, or a symbolic link
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0) return false;
    return sha256(readFileSync(fd)) === expected;
  } finally {
    closeSync(fd);
  }
}

/** Writes the binary to `file` whole or not at all. */
function writeCopy(binary: NativeBinary, dir: string, file: string): void {
  const bytes = binary.bytes();
  if (sha256(bytes) !== binary.sha256)
    throw new Error(
      `the ${binary.name} binary inside this executable is damaged (its sha256 differs from the build's)`,
    );
  const temp = join(dir, `.${binary.name}-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, bytes, { mode: 0o600, flag: 'wx' });
    chmodSync(temp, 0o500);
    renameSync(temp, file);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** The path of a private copy of the binary whose sha256 has just been checked; throws where there can be none. */
export function privateCopy(binary: NativeBinary, dir: string): string {
  const file = join(dir, `${binary.name}-${binary.sha256.slice(0, 16)}.node`);
  try {
    privateFolder(dir);
    if (holds(file, binary.sha256)) return file;
    writeCopy(binary, dir, file);
  } catch (error) {
    throw new Error(`cannot keep the ${binary.name} binary privately in ${dir}: ${(error as Error).message}`);
  }
  if (!holds(file, binary.sha256))
    throw new Error(`the copy of the ${binary.name} binary in ${dir} changed as it was written`);
  return file;
}

/** The addon's exports, loaded from its checked private copy. */
export function loadNativeBinary(binary: NativeBinary, dir: string): unknown {
  const module = { exports: {} };
  process.dlopen(module, privateCopy(binary, dir));
  return module.exports;
}
