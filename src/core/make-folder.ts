// Folders made with the folders above them, as `mkdir -p` does. Node's own (`mkdir(dir, { recursive: true })`) never
// returns where a file system refuses a folder with ENOENT although the folder above it exists (procfs:
// `XDG_CACHE_HOME=/proc/x`, a HOME there): it makes the one above again, and again, a synchronous call spinning at
// full CPU that not even Ctrl-C ends. Here each folder is tried once more after the one above it, then its error is
// thrown. A folder that exists already is left as it is; a file in its place is an error (EEXIST), as with Node's.
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { lazyRequire } from './lazy-require.js';

/** node:fs/promises, loaded when first used (not at start-up). */
const fsp = lazyRequire<typeof import('node:fs/promises')>('node:fs/promises');

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** `dir` and the folders missing above it, each made with `mode`. */
export function makeFolderSync(dir: string, mode = 0o700): void {
  try {
    mkdirSync(dir, { mode });
  } catch (error) {
    if (code(error) === 'EEXIST' && statSync(dir).isDirectory()) return;
    if (code(error) === 'EEXIST') throw error;
    if (code(error) !== 'ENOENT' || dirname(dir) === dir) throw error;
    makeFolderSync(dirname(dir), mode);
    try {
      mkdirSync(dir, { mode });
    } catch (again) {
      if (code(again) !== 'EEXIST') throw again;
    }
  }
}

/** makeFolderSync, without blocking. */
export async function makeFolder(dir: string, mode = 0o700): Promise<void> {
  try {
    await fsp().mkdir(dir, { mode });
  } catch (error) {
    if (code(error) === 'EEXIST' && (await fsp().stat(dir)).isDirectory()) return;
    if (code(error) === 'EEXIST') throw error;
    if (code(error) !== 'ENOENT' || dirname(dir) === dir) throw error;
    await makeFolder(dirname(dir), mode);
    try {
      await fsp().mkdir(dir, { mode });
    } catch (again) {
      if (code(again) !== 'EEXIST') throw again;
    }
  }
}
