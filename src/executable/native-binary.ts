// A native addon shipped inside the single executable (the keyring's), loaded from a private copy: process.dlopen
// needs a file. The copy is written once to a folder of the user's cache that only the user can enter (0700), as a
// file only the user can read (0500), through a temporary file renamed into place, so a half-written one is never
// seen. Before every load its sha256 must be the one recorded at build time: a copy that differs (damaged, replaced,
// a symbolic link, another user's) is rewritten, and where no private copy can be made nothing is loaded. What is
// loaded is the file checked, through its open descriptor, never the name looked up again.
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { makeFolderSync } from '../core/make-folder.js';

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
  makeFolderSync(dir);
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw new Error(`${dir} is not a folder`);
  if (uid !== undefined && stat.uid !== uid) throw new Error(`${dir} belongs to another user`);
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/**
 * `file` opened, when it is this user's regular file (no link followed), writable by no one else, with these bytes:
 * the descriptor of the very file checked. Else undefined.
 */
function openHeld(file: string, expected: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined; // missing, or a symbolic link
  }
  let held = false;
  try {
    const stat = fstatSync(fd);
    held =
      stat.isFile() &&
      (uid === undefined || stat.uid === uid) &&
      (stat.mode & 0o022) === 0 &&
      sha256(readFileSync(fd)) === expected;
    return held ? fd : undefined;
  } finally {
    if (!held) closeSync(fd);
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
  const { file, fd } = openPrivateCopy(binary, dir);
  closeSync(fd);
  return file;
}

/** A private copy of the binary, opened: the descriptor is of the file whose sha256 was checked. */
function openPrivateCopy(binary: NativeBinary, dir: string): { file: string; fd: number } {
  const file = join(dir, `${binary.name}-${binary.sha256.slice(0, 16)}.node`);
  let fd: number | undefined;
  try {
    privateFolder(dir);
    fd = openHeld(file, binary.sha256);
    if (fd === undefined) writeCopy(binary, dir, file);
  } catch (error) {
    throw new Error(`cannot keep the ${binary.name} binary privately in ${dir}: ${(error as Error).message}`);
  }
  fd ??= openHeld(file, binary.sha256);
  if (fd === undefined)
    throw new Error(`the copy of the ${binary.name} binary in ${dir} changed as it was written`);
  return { file, fd };
}

/**
 * What dlopen is given for a checked copy: on Linux the descriptor's own path, so what is mapped is the file whose
 * bytes were just hashed, not whatever the name points to a moment later (a folder above renamed by another user
 * who may write to it, say); elsewhere the file's path.
 */
function loadPath(file: string, fd: number): string {
  const byDescriptor = `/proc/self/fd/${fd}`;
  return process.platform === 'linux' && existsSync(byDescriptor) ? byDescriptor : file;
}

/** The addon's exports, loaded from its checked private copy. */
export function loadNativeBinary(binary: NativeBinary, dir: string): unknown {
  const module = { exports: {} };
  const { file, fd } = openPrivateCopy(binary, dir);
  try {
    process.dlopen(module, loadPath(file, fd));
  } finally {
    closeSync(fd);
  }
  return module.exports;
}
