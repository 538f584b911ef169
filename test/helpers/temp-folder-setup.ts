// Each test file gets its own temporary folder (TMPDIR, inherited by the processes it spawns); when the file ends,
// tempDir's directories are removed and anything else still there fails the file, by name.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { removeTempDirs } from './temp-dir.js';

const fileName = basename(expect.getState().testPath ?? 'test').replace(/\.test\.ts$/, '');
const folder = mkdtempSync(join(tmpdir(), `${fileName}-`));
process.env.TMPDIR = folder;

afterAll(async () => {
  await removeTempDirs();
  const left = readdirSync(folder);
  rmSync(folder, { recursive: true, force: true });
  if (left.length > 0)
    throw new Error(
      `${fileName}.test.ts left ${left.join(', ')} in its temporary folder: use tempDir or useTempDir (test/helpers/temp-dir.ts)`,
    );
});
