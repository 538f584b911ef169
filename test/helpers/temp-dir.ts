// Temporary directories for tests, always removed: per test (useTempDir) or when the test file ends (tempDir).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

const madeInThisFile = new Set<string>();

/** A fresh directory, removed when the test file ends (by the setup file, test/helpers/temp-folder-setup.ts). */
export async function tempDir(prefix = 'clinic-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  madeInThisFile.add(dir);
  return dir;
}

/** A fresh directory for each test of the enclosing suite, removed after that test. */
export function useTempDir(prefix = 'clinic-unit-'): { readonly path: string } {
  const state = { path: '' };
  beforeEach(async () => {
    state.path = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await rm(state.path, { recursive: true, force: true });
  });
  return state;
}

/** Removes every directory tempDir made in this test file. */
export async function removeTempDirs(): Promise<void> {
  for (const dir of madeInThisFile) await rm(dir, { recursive: true, force: true });
  madeInThisFile.clear();
}
