// The files the package ships beside the code, generated from the command declarations by `npm run completions`:
// completions/ and man/. Read from the package's folders, or from the single executable's assets.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { executable } from './executable.js';

/**
 * `path` (`completions/clinic.bash`) of this installation: found above `from` (the caller's import.meta.url), whether
 * it runs from the bundle (dist/bundle), from tsc's output (dist/commands/…) or from the sources (src/commands/…).
 */
export async function readShippedFile(path: string, from: string): Promise<string> {
  if (executable) return executable.shippedFile(path);
  let dir = dirname(fileURLToPath(from));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    try {
      return await readFile(join(dir, path), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new Error(`${path} is missing from this installation of clinic`);
}
