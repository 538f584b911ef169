// The compile cache the build ships (dist/bundle/main.cjs.cache, scripts/compile-cache.mjs): a command's first run
// on Node 20 starts from it (the commands it was made with keep it as their own), and a cache V8 cannot take (another
// V8 version) only means compiling from the source.
import { spawnSync } from 'node:child_process';
import { chmod, chown, mkdir, readdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from '../../helpers/cli.js';
import { onPty, plain } from '../../helpers/pty.js';
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

  /**
   * The first run of `words` with a cache directory of its own: the cache V8 took, the next run's, and whether one
   * was kept.
   */
  async function firstRun(words: string[], bundle = BUNDLE): Promise<string> {
    const cacheHome = await tempDir();
    const code = `process.argv = [process.argv[0], 'clinic', ...${JSON.stringify(words)}];
      const { loadWithVmCache } = require(${JSON.stringify(BIN)});
      const first = loadWithVmCache(${JSON.stringify(bundle)});
      first.saveCache();
      const kept = require('node:fs').existsSync(${JSON.stringify(join(cacheHome, 'clinic'))});
      console.log(first.cacheUsed, loadWithVmCache(${JSON.stringify(bundle)}).cacheUsed, kept);`;
    return inNode(code, { XDG_CACHE_HOME: cacheHome });
  }

  it('a run like one the build warmed takes its cache as its own and writes none; another writes its own', async () => {
    const { commands } = JSON.parse(await readFile(`${BUNDLE}.cache.json`, 'utf8'));
    // Every warmed run is listed (a build whose sandbox could not start would list fewer).
    expect(commands).toEqual([
      'config list -o json',
      'customers get # -o json',
      'customers get #',
      'customers list -o json',
      'customers list',
    ]);
    expect(await firstRun(['customers', 'get', '1', '-o', 'json'])).toBe('build build false');
    expect(await firstRun(['customers', 'get', '7'])).toBe('build build false');
    expect(await firstRun(['customers', 'list'])).toBe('build build false');
    expect(await firstRun(['--profile', 'prod', 'customers', 'get', '1'])).toBe('build user true');
    expect(await firstRun(['customers', 'list', '--all', '-o', 'ndjson'])).toBe('build user true');
    expect(await firstRun(['users', 'get', '1'])).toBe('build user true');
  });

  it('a run like one the build warmed takes the cache made of that command alone, not the one of them all', async () => {
    const { shapeName, runShape } = createRequire(import.meta.url)(BIN) as {
      shapeName(shape: string, terminal?: boolean): string | undefined;
      runShape(args: string[]): string;
    };
    const { alone } = JSON.parse(await readFile(`${BUNDLE}.cache.json`, 'utf8')) as { alone: string[] };
    expect(alone).toEqual([
      'config_list_-o_json',
      'customers_get_N_-o_json',
      'customers_get_N.terminal',
      'customers_list_-o_json',
      'customers_list.terminal',
    ]);
    const all = (await stat(`${BUNDLE}.cache`)).size;
    const sizes: Record<string, number> = {};
    for (const name of alone) sizes[name] = (await stat(`${BUNDLE}.${name}.cache`)).size;
    // Each holds only what its command runs: config's less than a list's table, and every one less than all of them.
    for (const size of Object.values(sizes)) expect(size).toBeLessThan(all * 0.95);
    expect(sizes['config_list_-o_json']).toBeLessThan(sizes['customers_list.terminal']!);
    expect(sizes['customers_get_N_-o_json']).toBeLessThan(sizes['customers_get_N.terminal']!);
    /** Which cache the first run of `words` took, and whether it was the one made of its command alone. */
    const taken = async (words: string[]) =>
      inNode(
        `process.argv = [process.argv[0], 'clinic', ...${JSON.stringify(words)}];
        const run = require(${JSON.stringify(BIN)}).loadWithVmCache(${JSON.stringify(BUNDLE)});
        console.log(run.cacheUsed, run.builtFor);`,
        { XDG_CACHE_HOME: await tempDir() },
      );
    expect(await taken(['customers', 'get', '7', '-o', 'json'])).toBe('build true');
    // Into a pipe (as here), `customers list` writes JSON: the cache made of it on a terminal (a table) is not its.
    expect(await taken(['customers', 'list'])).toBe('build false');
    expect(await taken(['customers', 'list', '--all', '-o', 'ndjson'])).toBe('build false');
    expect(await taken(['users', 'get', '1'])).toBe('build false');
    expect(shapeName(runShape(['customers', 'get', '42', '-o', 'json']))).toBe('customers_get_N_-o_json');
    expect(shapeName(runShape(['customers', 'get', '42']), true)).toBe('customers_get_N.terminal');
    expect(shapeName(runShape(['api', 'get', '/v1/../x y']))).toBe('api_get__v1____x_y');
    expect(shapeName(runShape(['customers', 'get', 'x'.repeat(100)]))).toBeUndefined();
  });

  it("the build's copy is in two parts: a warmed run reads the first alone; another reads the second as it needs it, from a cache of its own the next time", async () => {
    const [whole, core, more] = await Promise.all(
      ['main.cjs', 'main.function.cjs', 'main.more.cjs'].map((name) => stat(join(BUNDLE, '..', name))),
    );
    expect(core!.size).toBeLessThan(whole!.size * 0.6);
    expect(core!.size + more!.size).toBeGreaterThan(whole!.size);
    /** `words` run twice through loadWithVmCache and the bundle's main: each run's exit code and how it read the rest. */
    const twice = async (words: string[], { othersMayWrite = false } = {}) => {
      const home = await tempDir();
      const caches = await tempDir();
      return inNode(
        `const words = ${JSON.stringify(words)};
        process.argv = [process.argv[0], 'clinic', ...words];
        const { loadWithVmCache } = require(${JSON.stringify(BIN)});
        const { Readable, Writable } = require('node:stream');
        const sink = () => new Writable({ write: (_chunk, _encoding, next) => next() });
        (async () => {
          const told = [];
          for (let run = 0; run < 2; run++) {
            const bundle = loadWithVmCache(${JSON.stringify(BUNDLE)});
            const streams = { stdin: Readable.from([]), stdout: sink(), stderr: sink() };
            const code = await bundle.main(words, { streams, env: process.env, signal: new AbortController().signal });
            bundle.saveCache();
            told.push(code + ' ' + bundle.moreRead);
            // A cache others may write to is never read (bin/clinic.js, heldPrivately).
            if (${othersMayWrite}) {
              const dir = require('node:path').join(${JSON.stringify(caches)}, 'clinic');
              for (const name of require('node:fs').readdirSync(dir))
                if (name.includes('.more-')) require('node:fs').chmodSync(require('node:path').join(dir, name), 0o646);
            }
          }
          console.log(told.join(', '));
        })();`,
        { XDG_CACHE_HOME: caches, HOME: home, CLINIC_CONFIG_DIR: join(home, 'config') },
      );
    };
    expect(await twice(['config', 'list', '-o', 'json'])).toBe('0 not read, 0 not read');
    expect(await twice(['completion', 'bash'])).toBe('0 compiled, 0 from its cache');
    expect(await twice(['completion', 'bash'], { othersMayWrite: true })).toBe('0 compiled, 0 compiled');
  });

  it('on a terminal, a run like one the build warmed there takes the cache made of it', async () => {
    const code = `process.argv = [process.argv[0], 'clinic', 'customers', 'list'];
      const run = require(${JSON.stringify(BIN)}).loadWithVmCache(${JSON.stringify(BUNDLE)});
      process.stdout.write('taken: ' + run.cacheUsed + ' ' + run.builtFor + '\\n');`;
    const session = onPty([process.execPath, '-e', code], { env: { XDG_CACHE_HOME: await tempDir() } });
    const { code: exit, output } = await session.exited;
    expect([exit, plain(output).trim()]).toEqual([0, 'taken: build true']);
  });

  it('a warmed run whose build cache V8 rejects writes its own', async () => {
    const dir = await tempDir();
    const bundle = join(dir, 'main.cjs');
    for (const name of ['main.cjs', 'main.function.cjs', 'main.cjs.cache.json'])
      await writeFile(join(dir, name), await readFile(join(BUNDLE, '..', name)));
    for (const name of ['main.cjs.cache', 'main.cjs.customers_get_N_-o_json.cache']) {
      const foreign = Buffer.from(await readFile(join(BUNDLE, '..', name)));
      foreign.writeUInt32LE(foreign.readUInt32LE(4) ^ 0xffff, 4); // V8's header: the version hash at offset 4
      await writeFile(join(dir, name), foreign);
    }
    // The cache made of the command alone, then the one of them all: neither taken.
    expect(await firstRun(['customers', 'get', '1', '-o', 'json'], bundle)).toBe('none user true');
  });

  it('the build warms JSON into a pipe and the default format on a terminal, signed in as a user is', async () => {
    type Streams = { stdout: { isTTY?: boolean }; stdin: unknown };
    type Main = (argv: string[], deps: { streams: Streams; env: Record<string, string> }) => Promise<number>;
    const script = new URL('../../../scripts/warm-up.mjs', import.meta.url).href;
    const { warmUp } = (await import(script)) as {
      warmUp: (main: Main) => Promise<unknown[]>;
    };
    const runs: string[] = [];
    const warmed = await warmUp(async (argv, { streams, env }) => {
      const stored = await readFile(join(env.CLINIC_CONFIG_DIR!, 'credentials.json'), 'utf8').catch(() => '');
      runs.push(
        `${argv.join(' ')} | ${streams.stdout.isTTY === true ? 'terminal' : 'pipe'} | ${stored !== ''}`,
      );
      return 0;
    });
    expect(warmed).toHaveLength(5);
    expect(runs).toEqual([
      'config list -o json | pipe | false',
      'customers get 1 -o json | pipe | true',
      'customers get 1 | terminal | true',
      'customers list -o json | pipe | true',
      'customers list | terminal | true',
    ]);
  });

  describe('a cache only this user could have written', () => {
    const words = ['users', 'get', '1'];
    /** Runs `words` twice, the cache folder changed by `tamper` between: the cache the second run took. */
    async function takenAfter(tamper: (file: string, dir: string) => Promise<void>): Promise<string> {
      const cacheHome = await tempDir();
      expect(await runsWith(cacheHome)).toBe('build');
      const dir = join(cacheHome, 'clinic');
      const [name] = (await readdir(dir)).filter((file) => file.endsWith('.cache'));
      await tamper(join(dir, name!), dir);
      return runsWith(cacheHome);
    }
    /** One run of `words` (its cache saved): the cache V8 took. */
    const runsWith = async (cacheHome: string) =>
      inNode(
        `process.argv = [process.argv[0], 'clinic', ...${JSON.stringify(words)}];
        const run = require(${JSON.stringify(BIN)}).loadWithVmCache(${JSON.stringify(BUNDLE)});
        run.saveCache();
        console.log(run.cacheUsed);`,
        { XDG_CACHE_HOME: cacheHome },
      );
    const otherUser = 65534; // nobody
    const asRoot = process.getuid?.() === 0;

    it('reads its own', async () => {
      expect(await takenAfter(async () => {})).toBe('user');
    });

    it('never reads one others may write to, nor a symbolic link, and writes its own over it', async () => {
      let cacheFile = '';
      expect(
        await takenAfter(async (file) => {
          await chmod((cacheFile = file), 0o646);
        }),
      ).toBe('build');
      expect((await stat(cacheFile)).mode & 0o777).toBe(0o600); // the run's own, written in its place
      expect(
        await takenAfter(async (file, dir) => {
          await rename(file, join(dir, 'elsewhere'));
          await symlink(join(dir, 'elsewhere'), file);
        }),
      ).toBe('build');
    });

    it.skipIf(!asRoot)("never reads another user's, nor writes into another user's folder", async () => {
      expect(await takenAfter((file) => chown(file, otherUser, otherUser))).toBe('build');
      const cacheHome = await tempDir();
      await mkdir(join(cacheHome, 'clinic'), { mode: 0o777 });
      await chown(join(cacheHome, 'clinic'), otherUser, otherUser);
      expect(await runsWith(cacheHome)).toBe('build');
      expect(await readdir(join(cacheHome, 'clinic'))).toEqual([]);
    });

    it('makes a folder of its own that others could enter private before it writes there', async () => {
      const cacheHome = await tempDir();
      await mkdir(join(cacheHome, 'clinic'));
      await chmod(join(cacheHome, 'clinic'), 0o777);
      expect(await runsWith(cacheHome)).toBe('build');
      expect((await stat(join(cacheHome, 'clinic'))).mode & 0o777).toBe(0o700);
      expect(await runsWith(cacheHome)).toBe('user');
    });
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
