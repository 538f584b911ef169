// The compile cache the build ships (dist/bundle/main.cjs.cache, scripts/compile-cache.mjs): a command's first run
// on Node 20 starts from it (the commands it was made with keep it as their own), and a cache V8 cannot take (another
// V8 version) only means compiling from the source.
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp-dir.js';

const BUNDLE = fileURLToPath(new URL('../../../dist/bundle/main.cjs', import.meta.url));

/** Runs `code` in a plain `node` (no test runner's flags, which V8 would see as another configuration). */
function inNode(code: string, env: Record<string, string>): string {
  const child = spawnSync(process.execPath, ['-e', code], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
  expect(child.stderr).toBe('');
  return child.stdout.trim();
}

describe('compile cache shipped with the build', () => {
  it('starts a first run (no cache of its own) from the build cache, and later runs from its own', async () => {
    const cacheHome = await tempDir();
    const code = `const { loadWithVmCache } = require(${JSON.stringify(BIN)});
      const first = loadWithVmCache(${JSON.stringify(BUNDLE)});
      first.saveCache();
      console.log(first.cacheUsed, loadWithVmCache(${JSON.stringify(BUNDLE)}).cacheUsed);`;
    expect(inNode(code, { XDG_CACHE_HOME: cacheHome })).toBe('build user');
  });

  it('a command the build warmed takes its cache as its own and writes none; another writes its own', async () => {
    const { commands } = JSON.parse(await readFile(`${BUNDLE}.cache.json`, 'utf8'));
    expect(commands).toEqual(expect.arrayContaining(['customers-get', 'customers-list', 'config-list-json']));
    const firstRuns = async (words: string[]) => {
      const cacheHome = await tempDir();
      const code = `process.argv = [process.argv[0], 'clinic', ...${JSON.stringify(words)}];
        const { loadWithVmCache } = require(${JSON.stringify(BIN)});
        const first = loadWithVmCache(${JSON.stringify(BUNDLE)});
        first.saveCache();
        const kept = require('node:fs').existsSync(${JSON.stringify(join(cacheHome, 'clinic'))});
        console.log(first.cacheUsed, loadWithVmCache(${JSON.stringify(BUNDLE)}).cacheUsed, kept);`;
      return inNode(code, { XDG_CACHE_HOME: cacheHome });
    };
    expect(await firstRuns(['customers', 'get', '1', '-o', 'json'])).toBe('build build false');
    expect(await firstRuns(['--profile', 'prod', 'customers', 'get', '1'])).toBe('build user true');
    expect(await firstRuns(['users', 'get', '1'])).toBe('build user true');
  });

  it('a cache made by another V8 version is rejected, and the bundle compiles from the source', async () => {
    const dir = await tempDir();
    const foreign = Buffer.from(await readFile(`${BUNDLE}.cache`));
    foreign.writeUInt32LE(foreign.readUInt32LE(4) ^ 0xffff, 4); // V8's header: the version hash at offset 4
    await writeFile(join(dir, 'foreign.cache'), foreign);
    const code = `const { compileBundle } = require(${JSON.stringify(BIN)});
      const { readFileSync } = require('node:fs');
      const run = (cache) => compileBundle(${JSON.stringify(BUNDLE)}, readFileSync(cache));
      const shipped = run(${JSON.stringify(`${BUNDLE}.cache`)});
      const other = run(${JSON.stringify(join(dir, 'foreign.cache'))});
      console.log(shipped.script.cachedDataRejected, other.script.cachedDataRejected, typeof other.main);`;
    expect(inNode(code, {})).toBe('false true function');
  });
});
