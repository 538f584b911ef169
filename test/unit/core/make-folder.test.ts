// src/core/make-folder.ts: folders made with the ones above them, and an error, never an endless loop, where a file
// system refuses one with ENOENT although the folder above it exists (procfs), as Node's recursive mkdir loops.
import { spawnSync } from 'node:child_process';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeFolder, makeFolderSync } from '../../../src/core/make-folder.js';
import { BIN } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** The built module (npm test builds first), run by a plain node. */
const MODULE = fileURLToPath(new URL('../../../dist/core/make-folder.js', import.meta.url));

describe('makeFolder', () => {
  it('makes the folders missing on the way, private, and leaves one that exists as it is', async () => {
    const root = await tempDir();
    makeFolderSync(join(root, 'a', 'b', 'c'));
    await makeFolder(join(root, 'x', 'y'));
    for (const dir of ['a', 'a/b', 'a/b/c', 'x', 'x/y'])
      expect((await stat(join(root, dir))).mode & 0o777, dir).toBe(0o700);
    await mkdir(join(root, 'open'), { mode: 0o755 });
    makeFolderSync(join(root, 'open'));
    await makeFolder(join(root, 'open'));
    expect((await stat(join(root, 'open'))).mode & 0o777).toBe(0o755);
  });

  it('throws what stops it: a file on the way', async () => {
    const root = await tempDir();
    await writeFile(join(root, 'file'), '');
    expect(() => makeFolderSync(join(root, 'file', 'below'))).toThrow(/ENOTDIR/);
    await expect(makeFolder(join(root, 'file', 'below'))).rejects.toThrow(/ENOTDIR/);
  });

  // In a process of its own: a synchronous loop would stop the test runner itself.
  it.runIf(process.platform === 'linux')(
    "ends with ENOENT under /proc, where Node's own mkdir -p never returns",
    () => {
      const code = `import { makeFolder, makeFolderSync } from ${JSON.stringify(MODULE)};
      try { makeFolderSync('/proc/clinic-none/cache'); } catch (error) { console.log('sync', error.code); }
      await makeFolder('/proc/clinic-none/cache').catch((error) => console.log('async', error.code));`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
        encoding: 'utf8',
        timeout: 20_000,
        killSignal: 'SIGKILL',
      });
      expect(child.signal).toBeNull();
      expect(child.stdout.trim().split('\n')).toEqual(['sync ENOENT', 'async ENOENT']);
    },
  );

  it.runIf(process.platform === 'linux')(
    'clinic with its cache or config folder under /proc: the run ends, without a cache or with a clear error',
    async () => {
      const home = await tempDir();
      const run = (args: string[], env: Record<string, string>) =>
        spawnSync(process.execPath, [BIN, ...args], {
          encoding: 'utf8',
          timeout: 20_000,
          killSignal: 'SIGKILL',
          env: { PATH: process.env.PATH, HOME: home, CLINIC_CONFIG_DIR: join(home, 'config'), ...env },
        });
      const completion = run(['completion', 'bash'], { XDG_CACHE_HOME: '/proc/clinic-none' });
      expect([completion.signal, completion.status, completion.stdout.includes('complete')]).toEqual([
        null,
        0,
        true,
      ]);
      const set = run(['config', 'set', 'output', 'json'], { CLINIC_CONFIG_DIR: '/proc/clinic-none/config' });
      expect([set.signal, set.status]).toEqual([null, 1]);
      expect(set.stderr).toMatch(/^error: .*\/proc\/clinic-none/);
      expect(set.stderr.trim().split('\n')).toHaveLength(1);
    },
  );
});
