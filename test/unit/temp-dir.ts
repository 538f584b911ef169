// A fresh temporary directory per test, removed afterwards.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

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
