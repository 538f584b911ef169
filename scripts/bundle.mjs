// Bundles the CLI side (src/main.ts, the composition root that joins src/cli and src/core to src/commands) into one
// CommonJS file, dist/bundle/main.cjs, with a source map back to the TypeScript (bin/clinic.js turns source maps on
// under --debug). The build splits the code where src/ imports it lazily (esbuild's code splitting) and keeps each
// chunk a function of the one file (scripts/bundle/chunks.mjs), run when first imported: a command compiles and runs
// only the chunks it loads, and loads only the built-ins they use. Other packages stay in node_modules, loaded where
// used; the sandbox stays in dist/sandbox (tsc's output), loaded only by `clinic sandbox start`.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire, isBuiltin } from 'node:module';
import { basename } from 'node:path';
import { build } from 'esbuild';
import { combineChunks } from './bundle/chunks.mjs';

// Bundled in, and so under the bundle's compile cache: commander, which every command loads, and get-east-asian-width,
// which every table, record view and chat line measures text with (an ES module package: loaded from node_modules it
// would start Node's ES module loader). The rest load from node_modules, and only where used.
const BUNDLED = ['commander', 'get-east-asian-width'];
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies)
  .filter((name) => !BUNDLED.includes(name))
  .flatMap((name) => [name, `${name}/*`]);

const sandbox = {
  name: 'sandbox-outside',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/\.\.\/sandbox\// }, (args) => ({
      path: args.path.replace('../../sandbox/', '../sandbox/'),
      external: true,
    }));
  },
};

// commander requires child_process at load time for stand-alone executable subcommands, which clinic has none of:
// it is required when first used instead (4 ms of every start). The build fails if commander's code changes shape.
const lazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!text.includes(eager)) throw new Error(`${args.path}: expected "${eager}"`);
      const lazy = "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: text.replace(eager, lazy), loader: 'js' };
    });
  },
};

// Dynamic imports (a chunk's of another, a package's, the sandbox's) go through __dyni (scripts/bundle/chunks.mjs);
// import.meta.url, worked out on first use (url's pathToFileURL costs every start-up a millisecond), through __metaUrl.
const PRELUDE =
  "var __metaUrlValue; const __metaUrl = () => (__metaUrlValue ??= require('node:url').pathToFileURL(__filename).href);";

const { metafile, outputFiles } = await build({
  entryPoints: ['src/main.ts'],
  outdir: 'dist/bundle',
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'external',
  sourcesContent: false,
  external,
  plugins: [sandbox, lazyChildProcess],
  define: { 'import.meta.url': '__metaUrl__', __CLINIC_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  // A require of a name worked out at run time (ours or a bundled package's) would resolve from bin/: refused.
  logOverride: { 'unsupported-require-call': 'error' },
  minify: process.env.NOMIN ? false : true,
  metafile: true,
  write: false,
});
const bundle = new URL('../dist/bundle/main.cjs', import.meta.url);
const { code, map, chunks } = await combineChunks(outputFiles, {
  entry: 'main.js',
  prelude: PRELUDE,
  file: basename(bundle.pathname),
});

// import.meta.url became `__metaUrl__`: a call of the same length, so the source map's columns stay right.
const rewritten = code.replace(/\b__metaUrl__\b/g, '__metaUrl()');
// bin/clinic.js hands the bundle its own require: right for Node's built-ins only (a package or a relative path would
// resolve from bin/). Packages are loaded through __dyni or lazyRequire. (esbuild's metafile lists what the bundle
// leaves to `require`; scripts/bundle/chunks.mjs refuses a static import of anything else.)
const foreign = Object.values(metafile.outputs)
  .flatMap((output) => output.imports)
  .filter(({ external, kind, path }) => external && kind === 'require-call' && !isBuiltin(path))
  .map(({ path }) => path);
if (foreign.length) throw new Error(`the bundle requires more than Node's built-ins: ${foreign.join(', ')}`);
// What a chunk exports is read once, as an importing chunk starts (scripts/bundle/chunks.mjs): an export reassigned
// later would not be seen.
const reassignable = ['cli', 'core', 'commands']
  .flatMap((dir) => readdirSync(`src/${dir}`, { recursive: true }).map((file) => `src/${dir}/${file}`))
  .filter((file) => file.endsWith('.ts') && /^export (let|var) /m.test(readFileSync(file, 'utf8')));
if (reassignable.length)
  throw new Error(`exports that may be reassigned (export let/var): ${reassignable.join(', ')}`);
// esbuild wrote nothing (write: false): a fresh clone has no dist/bundle yet.
await mkdir(new URL('.', bundle), { recursive: true });
// V8 checks a code cache against its source's length alone: the caches of the bundle replaced go with it
// (scripts/compile-cache.mjs makes this one's).
// So does the part of it the last build split off (main.more.cjs): this bundle's is made then.
for (const name of await readdir(new URL('.', bundle)))
  if ((name.startsWith('main.') && name.endsWith('.cache')) || name === 'main.more.cjs')
    await rm(new URL(name, bundle));
// Where each chunk is in it, for scripts/compile-cache.mjs's split (scripts/bundle/chunks.mjs, splitChunks): checked
// before the bundle is written, so a new bundle never lies beside an old list.
for (const { name, start, body } of chunks)
  if (!rewritten.slice(start, body).startsWith(`${JSON.stringify(name)}: function (`))
    throw new Error(`the bundle's chunk ${name} is not where it was placed`);
await writeFile(bundle, rewritten);
await writeFile(
  new URL('../dist/bundle/main.cjs.chunks.json', import.meta.url),
  `${JSON.stringify(chunks)}\n`,
);
await writeFile(new URL('../dist/bundle/main.cjs.map', import.meta.url), map);
// The package files bundled in, for the release's copyright file (scripts/package.mjs).
const inputs = Object.keys(metafile.inputs).filter((input) => input.includes('node_modules/'));
await writeFile(
  new URL('../dist/bundle/main.cjs.inputs.json', import.meta.url),
  `${JSON.stringify(inputs)}\n`,
);

// bin/clinic.js compiles the bundle through vm.Script as one function (see compileBundle there): the build writes it
// so wrapped, and pure ASCII (esbuild's default charset escapes the rest), so bin reads it as Latin-1 into V8's
// one-byte string at once, with no UTF-8 decoding and no copy made to wrap it (2 ms of every start). Printable
// ASCII, tab and line ends are all it may hold. (Unminified, NOMIN=1, it keeps comments, whose other characters
// only come out garbled in them.)
if (!process.env.NOMIN && /[^ -~\t\n\r]/.test(rewritten)) throw new Error('the bundle is not pure ASCII');
const { wrapForVm } = createRequire(import.meta.url)('../bin/clinic.js');
await writeFile(new URL('../dist/bundle/main.function.cjs', import.meta.url), wrapForVm(rewritten));
