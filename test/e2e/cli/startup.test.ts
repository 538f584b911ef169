// Start-up budget: --version and --help load none of the heavy modules; every command's help has an example.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import {
  chmod,
  chown,
  mkdir,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandPaths } from '../../../src/main.js';
import { buildProgram } from '../../../src/cli/program.js';
import { loadCommands } from '../../../src/commands/index.js';
import { BIN, baseEnv, runCli, startWorld, tempConfigDir, type TestWorld } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/in-process.js';
import { startFakeApi } from '../../helpers/fake-api.js';

const commands = await loadCommands();
/** Node 22.1 and later keep a compile cache of their own, which bin/clinic.js uses instead of its vm fallback. */
const nodeModule = (await import('node:module')).default as unknown as { enableCompileCache?: unknown };
const nodeHasCompileCache = typeof nodeModule.enableCompileCache === 'function';

/** Packages from node_modules that a light command must not load (commander and get-east-asian-width are bundled in: scripts/bundle.mjs). */
const HEAVY = [
  'undici',
  'openid-client',
  'pusher-js',
  '@napi-rs/keyring',
  'oidc-provider',
  '@inquirer',
  'ora',
  'jq-wasm',
];
const ROOT = new URL('../../..', import.meta.url).href.replace(/\/$/, '');
const RECORDER = fileURLToPath(new URL('../../helpers/record-imports.mjs', import.meta.url));

/** A fresh config dir whose user cache directory (XDG_CACHE_HOME, set in `env`) is inside it: clinic's at `cache`. */
async function cacheInConfigDir() {
  const dir = await tempConfigDir();
  return { dir, cache: join(dir, 'cache', 'clinic'), env: { XDG_CACHE_HOME: join(dir, 'cache') } };
}

async function loadedModules(args: string[]): Promise<string[]> {
  const dir = await tempConfigDir();
  const file = join(dir, 'imports.txt');
  const result = await runCli(dir, args, {
    nodeArgs: ['--import', RECORDER],
    env: { RECORD_IMPORTS_FILE: file },
  });
  expect(result.code).toBe(0);
  const urls = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  expect(urls.some((url) => url.includes('/bin/clinic.js'))).toBe(true);
  return urls;
}

describe('start-up', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8'));
    const { code, stdout } = await runCli(await tempConfigDir(), ['--version']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${pkg.version}\n`);
  });

  for (const args of [['--version'], ['--help'], ['customers', 'list', '--help']]) {
    it(`clinic ${args.join(' ')} loads no heavy module`, async () => {
      const loaded = await loadedModules(args);
      for (const name of HEAVY)
        expect(loaded.filter((url) => url.includes(`/node_modules/${name}`))).toEqual([]);
    });
  }

  for (const args of [
    ['--version'],
    ['--help'],
    ['customers', '--help'],
    ['customers', 'list', '-h'],
    ['help', 'customers', 'list'],
  ]) {
    it(`clinic ${args.join(' ')} is answered by bin/clinic.js alone (package.json, dist/help.json)`, async () => {
      const ours = (await loadedModules(args)).filter((url) => url.includes(ROOT) && !url.includes('/test/'));
      expect([...new Set(ours.map((url) => url.slice(ROOT.length)))]).toEqual(['/bin/clinic.js']);
    });
  }

  it('help into a pipe fits COLUMNS (the terminal the pipe ends on), as tables do; 80 columns from the cache otherwise', async () => {
    const dir = await tempConfigDir();
    const narrow = await runCli(dir, ['customers', 'list', '--help'], { env: { COLUMNS: '60' } });
    expect(narrow.code).toBe(0);
    const lines = narrow.stdout.split('\n');
    expect(lines.filter((line, at) => line.length > 60 && !lines[at - 1]?.endsWith(' \\'))).toEqual([]);
    expect(narrow.stdout).toContain(
      '  $ clinic customers list --filter search=smith --limit 5 \\\n      -o csv',
    );
    const cached = await runCli(dir, ['customers', 'list', '--help']);
    expect(Math.max(...cached.stdout.split('\n').map((line) => line.length))).toBeGreaterThan(60);
    expect(cached.stdout).toBe(
      (await runCli(dir, ['customers', 'list', '--help'], { env: { COLUMNS: '100' } })).stdout,
    );
  });

  it('clinic help COMMAND... prints what COMMAND... --help prints, from the cache and live alike', async () => {
    const dir = await tempConfigDir();
    const cached = await runCli(dir, ['help', 'erasure', 'list']);
    expect(cached.code).toBe(0);
    expect(cached.stdout).toBe((await runCli(dir, ['erasure', 'list', '--help'])).stdout);
    const live = await runCli(dir, ['--no-color', 'help', 'erasure', 'list']);
    expect(live.stdout).toBe(cached.stdout);
    const unknown = await runCli(dir, ['help', 'erasure', 'lst']);
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([
      2,
      '',
      "error: unknown command 'lst' (did you mean list?)\n",
    ]);
  });

  it('a command loads the bundle and node:http, not undici, not TLS for an http address', async () => {
    const dir = await tempConfigDir();
    const file = join(dir, 'imports.txt');
    await runCli(dir, ['--base-url', 'http://127.0.0.1:9/api', 'account'], {
      nodeArgs: ['--import', RECORDER],
      // Loaded by require (not through the compile cache) so the recorder sees the bundle too.
      env: { RECORD_IMPORTS_FILE: file, CLINIC_TOKEN: 'x', CLINIC_NO_COMPILE_CACHE: '1' },
    });
    const loaded = await readFile(file, 'utf8');
    expect(loaded).toContain('/dist/bundle/main.cjs');
    expect(loaded).not.toContain('/node_modules/');
  });

  it('the cached help of every command is what commander renders live, whatever the environment', async () => {
    const cache = JSON.parse(await readFile(new URL('../../../dist/help.json', import.meta.url), 'utf8'));
    const paths = [[], ...(await commandPaths())];
    expect(Object.keys(cache).sort()).toEqual(paths.map((path) => path.join(' ')).sort());
    const env = { CLINIC_PROFILE: 'other', CLINIC_TENANT: '3', CLINIC_OUTPUT: 'json', COLUMNS: '200' };
    for (const path of paths) {
      const live = await runInProcess([...path, '--help'], { env });
      expect(live.stdout, path.join(' ')).toBe(cache[path.join(' ')]);
    }
  });

  it.skipIf(nodeHasCompileCache)(
    'keeps V8 compile cache in the user cache directory (0600), survives a damaged one, and can be turned off',
    async () => {
      const { dir, cache, env } = await cacheInConfigDir();
      expect((await runCli(dir, ['config', 'list'], { env })).code).toBe(0);
      const [name] = await readdir(cache);
      expect(name).toMatch(/^main-v\d+\.\d+\.\d+-\d+-\d+-config-list\.cache$/);
      expect((await stat(join(cache, name!))).mode & 0o777).toBe(0o600);
      await writeFile(join(cache, name!), 'not a V8 cache');
      const again = await runCli(dir, ['config', 'list'], { env });
      expect(again.code).toBe(0);
      expect((await stat(join(cache, name!))).size).toBeGreaterThan(1000); // rejected, then written afresh
      const off = await tempConfigDir();
      await runCli(off, ['config', 'list'], {
        env: { XDG_CACHE_HOME: join(off, 'c'), CLINIC_NO_COMPILE_CACHE: '1' },
      });
      await expect(readdir(join(off, 'c'))).rejects.toThrow();
    },
  );

  it("--debug shows where an error came from in the TypeScript sources (the bundle's source map)", async () => {
    const dir = await tempConfigDir();
    const run = await runCli(dir, [
      '--debug',
      'customers',
      'get',
      '1',
      '--base-url',
      'http://127.0.0.1:9/api',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/needs a tenant/);
    expect(run.stderr).toMatch(/\n {4}at .*\/src\/core\/http\/client\.ts:\d+:\d+\)/);
    expect(run.stderr).not.toMatch(/dist\/bundle\/main\.cjs:\d+/);
  });

  it('output into /dev/null (a cron job, a service) loads no terminal support', async () => {
    const dir = await tempConfigDir();
    const recorder = fileURLToPath(new URL('../../helpers/record-builtins.mjs', import.meta.url));
    const loaded = join(dir, 'builtins.txt');
    const devNull = openSync('/dev/null', 'w');
    const run = spawnSync(process.execPath, ['--import', recorder, BIN, 'config', 'list', '-o', 'json'], {
      env: { ...baseEnv(dir), RECORD_BUILTINS_FILE: loaded },
      stdio: ['ignore', devNull, 'pipe'],
    });
    closeSync(devNull);
    expect([run.status, run.stderr.toString()]).toEqual([0, '']);
    const builtins = readFileSync(loaded, 'utf8').split('\n');
    expect(builtins).toContain('NativeModule fs');
    expect(builtins).not.toContain('NativeModule tty');
  });

  it('makes stderr only to write to it (making the stream costs every start-up)', async () => {
    const dir = await tempConfigDir();
    const recorder = fileURLToPath(new URL('../../helpers/record-builtins.mjs', import.meta.url));
    // stderr into a file: made, it would load the synchronous file stream.
    const builtins = (args: string[]) => {
      const loaded = join(dir, 'builtins.txt');
      const err = openSync(join(dir, 'stderr.txt'), 'w');
      const run = spawnSync(process.execPath, ['--import', recorder, BIN, ...args], {
        env: { ...baseEnv(dir), RECORD_BUILTINS_FILE: loaded },
        stdio: ['ignore', 'pipe', err],
      });
      closeSync(err);
      return { code: run.status, loaded: readFileSync(loaded, 'utf8') };
    };
    const quiet = builtins(['config', 'list']);
    expect(quiet.code).toBe(0);
    expect(quiet.loaded).not.toContain('internal/fs/sync_write_stream');
    const told = builtins(['config', 'get', 'nosuchkey']);
    expect(told.code).toBe(2);
    expect(told.loaded).toContain('internal/fs/sync_write_stream');
    expect(readFileSync(join(dir, 'stderr.txt'), 'utf8')).toContain("unknown config key 'nosuchkey'");
  });

  it('bin/clinic.js is pure ASCII: Node reads it into a string of one byte a character, not two', () => {
    // One character past ASCII (an ellipsis in a comment) made the whole 24 KB source a two-byte string: 24 KB more
    // of young memory on every start-up, towards its first collection.
    const lines = readFileSync(BIN, 'utf8').split('\n');
    expect(lines.filter((line) => /[^\t\r -~]/.test(line))).toEqual([]);
  });

  it('--version into a full disk: one line and exit 1, no stack trace', () => {
    const full = openSync('/dev/full', 'w');
    const run = spawnSync(process.execPath, [BIN, '--version'], { stdio: ['ignore', full, 'pipe'] });
    closeSync(full);
    expect(run.status).toBe(1);
    expect(run.stderr.toString()).toBe('error: cannot write the output (ENOSPC)\n');
  });

  it.skipIf(nodeHasCompileCache)(
    'keeps a compile cache per command, used as written, and the 48 newest of any build',
    async () => {
      const { dir, cache, env } = await cacheInConfigDir();
      // A failed run keeps nothing: it ran too little of its command.
      expect((await runCli(dir, ['customers', 'get'], { env })).code).toBe(2);
      await expect(readdir(cache)).rejects.toThrow(/ENOENT/);
      await runCli(dir, ['config', 'list'], { env });
      const [first] = await readdir(cache);
      const build = first!.replace(/config-list\.cache$/, '');
      // Another build's caches, one recent (an install used in turn with this one) and one old, and more of this
      // build's than are kept (the oldest first).
      await writeFile(join(cache, 'main-v0.0.0-1-2-recent.cache'), 'other install');
      await writeFile(join(cache, 'main-v0.0.0-1-2-config-list.cache'), 'stale');
      await utimes(join(cache, 'main-v0.0.0-1-2-config-list.cache'), 500, 500);
      for (let i = 0; i < 60; i++) {
        await writeFile(join(cache, `${build}old-${i}.cache`), 'x');
        await utimes(join(cache, `${build}old-${i}.cache`), 1000 + i, 1000 + i);
      }
      const written = (await stat(join(cache, first!))).mtimeMs;
      await runCli(dir, ['config', 'list'], { env });
      expect((await stat(join(cache, first!))).mtimeMs).toBe(written); // accepted, not rewritten
      await runCli(dir, ['-o', 'json', 'config', 'profiles'], { env });
      await runCli(dir, ['config', 'profiles'], { env });
      const names = await readdir(cache);
      expect(names).toContain(`${build}config-profiles.cache`);
      expect(names).toContain(`${build}json-config-profiles.cache`); // options skipped, their values are words
      expect(names).toContain(first);
      expect(names).toContain('main-v0.0.0-1-2-recent.cache');
      expect(names).not.toContain('main-v0.0.0-1-2-config-list.cache');
      expect(names).toHaveLength(48);
      expect(names).not.toContain(`${build}old-0.cache`);
    },
  );

  it('the command tree holds only the command argv names, after any global options', () => {
    const hooks = { context: async () => undefined as never, write: () => {}, writeErr: () => {} };
    const names = (argv: string[]) => buildProgram('0', commands, hooks, argv).commands.map((c) => c.name());
    expect(names(['--tenant', '3', '-o', 'json', '--debug', 'customers', 'list'])).toEqual(['customers']);
    expect(names(['--output=csv', 'users'])).toEqual(['users']);
    expect(names(['-ojson', 'leads'])).toEqual(['leads']);
    expect(names(['help'])).toEqual(names([]));
    expect(names(['custmers']).length).toBeGreaterThan(10); // commander's suggestion needs them all
  });

  it('the program declares the global options argv may mention, all of them where help or a near miss needs them', () => {
    const hooks = { context: async () => undefined as never, write: () => {}, writeErr: () => {} };
    const declared = (argv?: string[]) =>
      buildProgram('0', commands, hooks, argv)
        .options.map((option) => option.long)
        .filter((flag) => flag !== '--version');
    const every = declared();
    expect(every.length).toBeGreaterThan(15);
    expect(declared(['customers', 'get', '1'])).toEqual([]);
    expect(declared(['customers', 'get', '1', '-o', 'json', '--tenant=3'])).toEqual(['--tenant', '--output']);
    expect(declared(['-yq', 'erasure', 'list', '-ojson'])).toEqual(['--output', '--yes', '--quiet']);
    expect(declared(['customers', 'list', '--per-page', '5', '--no-input'])).toEqual(['--no-input']);
    expect(declared(['customers', 'list', '--help'])).toEqual(every);
    expect(declared(['-yh'])).toEqual(every); // -y -h: the program's help lists them all
    expect(declared(['customers', 'list', '--profil', 'x'])).toEqual(every); // a near miss: commander names --profile
  });

  it('a global option argv does not name parses as before, and a near miss is still named', async () => {
    const dir = await tempConfigDir();
    const typo = await runCli(dir, ['customers', 'list', '--profil', 'x']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("error: unknown option '--profil' (did you mean --profile?)\n");
    const plain = await runCli(dir, ['--base-url', 'http://127.0.0.1:9/api', 'config', 'get', 'base_url']);
    expect(plain.stdout).toBe('http://127.0.0.1:9/api\n');
  });

  it('every command has an example in its help', async () => {
    const dir = await tempConfigDir();
    const top = await runCli(dir, ['--help']);
    const nouns = [...top.stdout.matchAll(/^ {2}([a-z][a-z-]*)(?: \[options\])?(?: <[^>]+>)?\s{2,}/gm)]
      .map((m) => m[1] as string)
      .filter((name) => name !== 'help');
    expect(nouns).toEqual(expect.arrayContaining(['login', 'customers', 'config', 'api', 'sandbox']));
    for (const noun of nouns) {
      const help = await runCli(dir, [noun, '--help']);
      expect(help.stdout, noun).toContain('Examples:\n  $ ');
      const verbs = [
        ...help.stdout.matchAll(/^ {2}([a-z][a-z-]*)(?: \[options\])?(?: [<[][^>\]]+[>\]])*\s{2,}/gm),
      ]
        .map((m) => m[1] as string)
        .filter((name) => name !== 'help');
      for (const verb of help.stdout.includes('Commands:') ? verbs : []) {
        const verbHelp = await runCli(dir, [noun, verb, '--help']);
        expect(verbHelp.stdout, `${noun} ${verb}`).toContain('Examples:\n  $ ');
      }
    }
  }, 120_000); // some 80 runs one after another: 5 s on a quiet machine, over 30 s on a loaded one
});

describe("start-up: Node's compile cache where Node has one", () => {
  const STUB = fileURLToPath(new URL('../../helpers/stub-compile-cache.mjs', import.meta.url));

  /** A run of `config list` with module.enableCompileCache stubbed in: the directories it was given, the caches. */
  async function withNodeCache(args: string[], env: Record<string, string> = {}) {
    const dir = await tempConfigDir();
    const calls = join(dir, 'calls.txt');
    await writeFile(calls, '');
    const cacheHome = join(dir, 'cache');
    const run = await runCli(dir, args, {
      nodeArgs: ['--import', STUB],
      env: { XDG_CACHE_HOME: cacheHome, STUB_COMPILE_CACHE_FILE: calls, ...env },
    });
    const given = (await readFile(calls, 'utf8')).split('\n').filter(Boolean);
    const kept = await readdir(join(cacheHome, 'clinic')).catch(() => [] as string[]);
    return { run, given, kept, cacheHome };
  }

  it('is handed a 0700 directory under the user cache directory, and the vm fallback keeps nothing', async () => {
    const { run, given, kept, cacheHome } = await withNodeCache(['config', 'list']);
    expect(run.code).toBe(0);
    expect(given).toEqual([join(cacheHome, 'clinic', 'node')]);
    expect((await stat(given[0]!)).mode & 0o777).toBe(0o700);
    expect(kept).toEqual(['node']); // no main-*.cache of the vm fallback
    // The same output as a run without any cache.
    const plain = await runCli(await tempConfigDir(), ['config', 'list'], {
      env: { CLINIC_NO_COMPILE_CACHE: '1' },
    });
    expect(run.stdout).toBe(plain.stdout);
  });

  it('is left off with CLINIC_NO_COMPILE_CACHE and under --debug', async () => {
    for (const [args, env] of [
      [['config', 'list'], { CLINIC_NO_COMPILE_CACHE: '1' }],
      [['--debug', 'config', 'list'], {}],
    ] as const) {
      const { run, given, kept } = await withNodeCache([...args], env);
      expect(run.code, args.join(' ')).toBe(0);
      expect(given, args.join(' ')).toEqual([]);
      expect(kept, args.join(' ')).toEqual([]);
    }
  });

  it("is never handed a folder that is a symbolic link, another user's or below one others may change; one of the user's is made private", async () => {
    // Node reads its cache from the folder without asking whose it is.
    const linked = await tempConfigDir();
    await mkdir(join(linked, 'elsewhere'), { mode: 0o700 });
    await mkdir(join(linked, 'cache', 'clinic'), { recursive: true, mode: 0o700 });
    await symlink(join(linked, 'elsewhere'), join(linked, 'cache', 'clinic', 'node'));
    const calls = join(linked, 'calls.txt');
    await writeFile(calls, '');
    const env = { XDG_CACHE_HOME: join(linked, 'cache'), STUB_COMPILE_CACHE_FILE: calls };
    const run = await runCli(linked, ['config', 'list'], { nodeArgs: ['--import', STUB], env });
    expect(run.code).toBe(0);
    expect(await readFile(calls, 'utf8')).toBe('');
    if (process.getuid?.() === 0) {
      await rm(join(linked, 'cache', 'clinic', 'node'));
      await chown(join(linked, 'cache', 'clinic'), 65534, 65534);
      expect((await runCli(linked, ['config', 'list'], { nodeArgs: ['--import', STUB], env })).code).toBe(0);
      expect(await readFile(calls, 'utf8')).toBe('');
    }
    // A folder on the way that others may write to: they could swap what follows it after the check.
    const shared = await tempConfigDir();
    await mkdir(join(shared, 'open', 'cache'), { recursive: true });
    await chmod(join(shared, 'open'), 0o777);
    const unsafe = await withNodeCache(['config', 'list'], { XDG_CACHE_HOME: join(shared, 'open', 'cache') });
    expect(unsafe.run.code).toBe(0);
    expect(unsafe.given).toEqual([]);
    await chmod(join(shared, 'open'), 0o1777); // sticky, as /tmp: no one moves another's entry
    const sticky = await withNodeCache(['config', 'list'], { XDG_CACHE_HOME: join(shared, 'open', 'cache') });
    expect(sticky.given).toEqual([join(shared, 'open', 'cache', 'clinic', 'node')]);
    const open = await tempConfigDir();
    await mkdir(join(open, 'cache', 'clinic'), { recursive: true });
    await chmod(join(open, 'cache', 'clinic'), 0o777);
    const { given } = await withNodeCache(['config', 'list'], { XDG_CACHE_HOME: join(open, 'cache') });
    expect(given).toEqual([join(open, 'cache', 'clinic', 'node')]);
    expect((await stat(join(open, 'cache', 'clinic'))).mode & 0o777).toBe(0o700);
  });

  it.runIf(nodeHasCompileCache)('is written by a real run', async () => {
    const { dir, cache, env } = await cacheInConfigDir();
    expect((await runCli(dir, ['config', 'list'], { env })).code).toBe(0);
    expect(await readdir(join(cache, 'node'))).not.toEqual([]);
  });
});

describe("start-up: CommonJS packages are required, never imported (Node's ES module loader costs a run 5-7 ms)", () => {
  const RECORDER_CJS = fileURLToPath(new URL('../../helpers/record-builtins.cjs', import.meta.url));
  let world: TestWorld;
  beforeAll(async () => {
    world = await startWorld({ records: 12, rateLimit: 1000 });
  });
  afterAll(() => world.close());

  /** The built-in modules a run loaded, and its exit code. */
  async function loaded(args: string[], env: Record<string, string | undefined> = {}) {
    const file = join(world.configDir, '..', `builtins-${args.join('-')}.txt`);
    const run = await world.clinic(args, {
      nodeArgs: ['--require', RECORDER_CJS],
      env: { RECORD_BUILTINS_FILE: file, ...env },
    });
    return { code: run.code, stderr: run.stderr, builtins: await readFile(file, 'utf8') };
  }
  // Loaded only when something is imported (the loader's module jobs).
  const IMPORTED = 'internal/modules/esm/module_job';

  it('a table (its text measured by get-east-asian-width), and an export whose requests share the rate-limit budget (proper-lockfile)', async () => {
    const table = await loaded(['customers', 'list', '-o', 'table', '--utc']);
    expect(table.code).toBe(0);
    expect(table.builtins).not.toContain(IMPORTED);
    const shared = await loaded(['customers', 'list', '--all', '--per-page', '5', '-o', 'table']);
    expect(shared.code).toBe(0);
    expect(await readdir(join(world.configDir, 'rate-limit', 'sandbox'))).not.toEqual([]);
    expect(shared.builtins).not.toContain(IMPORTED);
  });

  it("a request to the sandbox (its listener checked as this user's) loads no perf_hooks", async () => {
    // `performance`'s first touch loads perf_hooks: most of a millisecond of every run that asks anything.
    const run = await loaded(['customers', 'get', '1', '-o', 'json']);
    expect(run.code).toBe(0);
    expect(run.builtins).toContain('NativeModule http');
    expect(run.builtins).not.toContain('perf_hooks');
  });

  it.runIf(process.versions.v8.startsWith('11.3.'))(
    "a request is sent before any young collection of V8's task (core/memory.ts, collectYoungWhenFull)",
    async () => {
      // --trace-gc prints each collection on stdout with its reason: `task` is V8's own, asked for at 80% of the
      // young generation and run at the event loop's next turn, which was the request's connection.
      const run = await world.clinic(['customers', 'get', '1', '-o', 'json'], { nodeArgs: ['--trace-gc'] });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('"id": 1');
      expect(run.stdout).not.toMatch(/Scavenge.*\btask\b/);
    },
  );

  it('the keychain (@napi-rs/keyring), even when it cannot be reached', async () => {
    const run = await loaded(['--profile', 'nokeychain', 'login', '--with-token'], {
      DBUS_SESSION_BUS_ADDRESS: undefined,
    });
    expect(run.code).toBe(3);
    expect(run.builtins).not.toContain(IMPORTED);
    // The yardstick: a package that is an ES module does start the loader.
    const jq = await loaded(['customers', 'list', '--jq', '.[0].id']);
    expect(jq.code).toBe(0);
    expect(jq.builtins).toContain(IMPORTED);
  });
});

describe('start-up: V8 tuned for constant memory only in runs that follow pages', () => {
  const RECORDER_V8 = fileURLToPath(new URL('../../helpers/record-v8-tuning.mjs', import.meta.url));
  const PER_PAGE = 2;
  const TOTAL = 5;

  /** Customers in pages of two (five in all), and three channels (an unpaginated list). */
  async function pagedApi() {
    const api = await startFakeApi({
      answer({ path }) {
        const url = new URL(path, 'http://x');
        if (url.pathname === '/api/v1/channels')
          return { body: { success: true, data: [1, 2, 3].map((id) => ({ id, name: `c${id}` })) } };
        if (url.pathname !== '/api/v1/customers') return undefined;
        const page = Number(url.searchParams.get('page') ?? '1');
        const last = Math.ceil(TOTAL / PER_PAGE);
        const ids = Array.from({ length: PER_PAGE }, (_, i) => (page - 1) * PER_PAGE + i + 1);
        return {
          body: {
            data: ids.filter((id) => id <= TOTAL).map((id) => ({ id, first_name: `n${id}` })),
            meta: { current_page: page, per_page: PER_PAGE, total: TOTAL, last_page: last },
            links: { next: page < last ? `${api.baseUrl}/v1/customers?page=${page + 1}` : null },
          },
        };
      },
    });
    return api;
  }

  async function tuning(args: string[]): Promise<{ tuning: string; stdout: string; code: number | null }> {
    const api = await pagedApi();
    try {
      const dir = await api.configDir();
      const file = join(dir, '..', 'v8.txt');
      const run = await runCli(dir, ['-o', 'csv', ...args], {
        nodeArgs: ['--import', RECORDER_V8],
        env: { RECORD_V8_TUNING_FILE: file, CLINIC_TOKEN: 'x' },
      });
      expect(run.stderr).toBe('');
      return { tuning: await readFile(file, 'utf8'), stdout: run.stdout, code: run.code };
    } finally {
      await api.close();
    }
  }

  const rows = (stdout: string) => stdout.trim().split('\n').length - 1;

  it('a one-page list leaves V8 as it is', async () => {
    for (const args of [
      ['channels', 'list'],
      ['customers', 'list'],
      ['customers', 'list', '--limit', '2'],
    ]) {
      const run = await tuning(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.tuning, args.join(' ')).toBe('plain');
    }
  });

  it('an --all export, or a --limit past one page, tunes it', async () => {
    for (const [args, count] of [
      [['customers', 'list', '--all'], TOTAL],
      [['customers', 'list', '--limit', '3', '--per-page', '2'], 3],
    ] as const) {
      const run = await tuning([...args]);
      expect(run.code, args.join(' ')).toBe(0);
      expect(rows(run.stdout), args.join(' ')).toBe(count);
      expect(run.tuning, args.join(' ')).toBe('tuned');
    }
  });

  // V8 stamps a code cache with its flags; one written under the tuned flags was refused by every next run.
  it.skipIf(nodeHasCompileCache)(
    'an --all export leaves a compile cache the next run takes (it is not written again)',
    async () => {
      const api = await pagedApi();
      try {
        const dir = await api.configDir();
        const cache = join(dir, '..', 'cache', 'clinic');
        const cacheFile = async () => {
          const names = (await readdir(cache)).filter((name) => name.endsWith('-customers-list.cache'));
          expect(names).toHaveLength(1);
          return stat(join(cache, names[0]!));
        };
        const args = ['customers', 'list', '--all', '--limit', '5'];
        const tuning = join(dir, '..', 'v8.txt');
        const first = await runCli(dir, args, {
          nodeArgs: ['--import', RECORDER_V8],
          env: { CLINIC_TOKEN: 'x', RECORD_V8_TUNING_FILE: tuning },
        });
        expect(first.code).toBe(0);
        expect(await readFile(tuning, 'utf8')).toBe('tuned'); // the run this is about set V8's flags
        const written = await cacheFile();
        for (let run = 0; run < 2; run++) {
          const again = await runCli(dir, args, { env: { CLINIC_TOKEN: 'x' } });
          expect(again.stdout).toBe(first.stdout);
          expect((await cacheFile()).ino).toBe(written.ino);
        }
      } finally {
        await api.close();
      }
    },
  );
});

describe('start-up: a stream is made only when a run needs it', () => {
  const RECORDER_STREAMS = fileURLToPath(new URL('../../helpers/record-streams.mjs', import.meta.url));

  /** `customers get` and `customers list --all` of `total` customers (100 a page), through a pipe. */
  async function streams(args: string[], total: number) {
    const api = await startFakeApi({
      answer({ path }) {
        const url = new URL(path, 'http://x');
        const one = /^\/api\/v1\/customers\/(\d+)$/.exec(url.pathname);
        if (one) return { body: { data: { id: Number(one[1]), first_name: 'Zoë', notes: 'x'.repeat(200) } } };
        if (url.pathname !== '/api/v1/customers') return undefined;
        const page = Number(url.searchParams.get('page') ?? '1');
        const last = Math.ceil(total / 100);
        const ids = Array.from({ length: 100 }, (_, i) => (page - 1) * 100 + i + 1).filter(
          (id) => id <= total,
        );
        return {
          body: {
            data: ids.map((id) => ({ id, first_name: 'Zoë', notes: 'x'.repeat(200) })),
            meta: { current_page: page, per_page: 100, total, last_page: last },
          },
        };
      },
    });
    try {
      const dir = await api.configDir();
      const file = join(dir, '..', 'streams.txt');
      const run = await runCli(dir, args, {
        nodeArgs: ['--import', RECORDER_STREAMS],
        env: { RECORD_STREAMS_FILE: file, CLINIC_TOKEN: 'x' },
      });
      return { ...run, made: (await readFile(file, 'utf8')).split('\n').filter(Boolean) };
    } finally {
      await api.close();
    }
  }

  it('a small output goes straight to stdout: neither stream is made', async () => {
    const run = await streams(['customers', 'get', '7', '-o', 'json'], 0);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: 7, first_name: 'Zoë' });
    expect(run.stderr).toBe('');
    expect(run.made).toEqual([]);
  });

  it('a long output starts straight and goes on through the stream, every record once and in order', async () => {
    const run = await streams(['customers', 'list', '--all', '-o', 'ndjson'], 450);
    expect(run.code).toBe(0);
    const ids = run.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: number }).id);
    expect(ids).toEqual(Array.from({ length: 450 }, (_, i) => i + 1));
    expect(Buffer.byteLength(run.stdout)).toBeGreaterThan(16 * 1024); // past what goes straight to fd 1
    expect(run.made).toContain('stdout');
  });
});
