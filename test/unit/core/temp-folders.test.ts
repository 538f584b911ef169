// The tests' temporary folders (test/helpers/temp-folder-*.ts): one per run, one per file inside it, and tempDir's
// directories removed when the file ends, so the check that the folder is empty means something.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../../helpers/temp-dir.js';

it("gives this file its own temporary folder inside the run's, for the processes it spawns too", () => {
  expect(basename(tmpdir())).toMatch(/^temp-folders-/);
  expect(basename(dirname(tmpdir()))).toMatch(/^clinic-run-/);
  expect(process.env.TMPDIR).toBe(tmpdir());
});

it('removes the directories tempDir made', async () => {
  const dirs = [await tempDir(), await tempDir('clinic-other-')];
  for (const dir of dirs) expect(dirname(dir)).toBe(tmpdir());
  await removeTempDirs();
  for (const dir of dirs) expect(existsSync(dir)).toBe(false);
});
