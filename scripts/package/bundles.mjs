// The single executable's code, made with esbuild from the same sources as the npm package: its main script
// (bin/clinic.js's startCli with src/executable/installation.ts), and one CommonJS bundle per package the CLI loads
// on demand (each an asset, see src/executable/packages.ts). The bundled CLI itself is the npm package's
// dist/bundle/main.cjs, unchanged.
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';

const quiet = { logLevel: 'error' };

/** The executable's main script: bin/clinic.js started with the executable's installation. */
export async function bundleMain(root, outfile, version) {
  const result = await build({
    stdin: {
      contents:
        "require('./bin/clinic.js').startCli(require('./src/executable/installation.ts').installation);",
      resolveDir: root,
      sourcefile: 'executable-main.cjs',
      loader: 'js',
    },
    outfile,
    absWorkingDir: root,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    define: { __CLINIC_VERSION__: JSON.stringify(version) },
    metafile: true,
    ...quiet,
  });
  checkExternals(result.metafile);
}

/**
 * What the bundled CLI loads on demand, each as [kind, id]: its `import()`s, read from dist/bundle/main.cjs (where
 * scripts/bundle.mjs made every one a `__dyni("…")`), and its `lazyRequire`s, read from the sources.
 */
export function packagesLoaded(root) {
  const bundle = readFileSync(join(root, 'dist/bundle/main.cjs'), 'utf8');
  const imports = [...bundle.matchAll(/\b__dyni\(([^)]*)\)/g)]
    .map(([, arg]) => {
      if (!/^"[^"]+"$/.test(arg)) throw new Error(`the bundle imports a computed module: __dyni(${arg})`);
      return JSON.parse(arg);
    })
    // A chunk of the bundle itself (scripts/bundle/chunks.mjs) is no package.
    .filter((id) => !id.startsWith('./'));
  const requires = [];
  for (const dir of ['cli', 'core', 'commands'])
    for (const entry of readdirSync(join(root, 'src', dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      // Comments aside: one may name lazyRequire without calling it.
      const source = readFileSync(join(entry.parentPath, entry.name), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
      // The type argument may hold parentheses of its own: lazyRequire<typeof import('csv-parse')>('csv-parse').
      const calls = [...source.matchAll(/\blazyRequire\s*(?:<[^;]*?>)?\s*\(\s*'([^']+)'\s*\)/g)];
      // Every call (its definition aside) names a package in quotes: one not read here would be missing.
      const anyCalls = source.match(/(?<!function )\blazyRequire\s*(?:<[^;]*?>)?\s*\(/g) ?? [];
      if (anyCalls.length !== calls.length)
        throw new Error(`${entry.name}: a lazyRequire whose package is not a quoted name`);
      for (const [, id] of calls) requires.push(id);
    }
  const unique = (ids) => [...new Set(ids)].filter((id) => !isBuiltin(id)).sort();
  return [...unique(imports).map((id) => ['import', id]), ...unique(requires).map((id) => ['require', id])];
}

/** Modules bundled in place of what an id names: the sandbox's sources, and jq-wasm with its WebAssembly. */
const REPLACED = {
  '../sandbox/index.js': 'src/sandbox/index.ts',
  'jq-wasm': 'src/executable/jq-wasm.ts',
  // @napi-rs/keyring's index.js finds its platform binary in node_modules: here it comes from the executable.
  '@napi-rs/keyring': 'src/executable/keyring-binding.ts',
};

/**
 * One bundle per package the CLI loads, in `outdir` as `<kind>/<id, URI-encoded>.cjs` (src/executable/packages.ts
 * reads them by that name). Returns esbuild's metafile (which package files went in, for the copyright file).
 */
export async function bundlePackages(root, outdir, packages, keyringSha256) {
  const entry = {
    name: 'clinic-package-entry',
    setup(b) {
      b.onResolve({ filter: /^clinic-package:/ }, (args) => ({
        path: args.path,
        namespace: 'clinic-package',
      }));
      b.onLoad({ filter: /.*/, namespace: 'clinic-package' }, (args) => {
        const [, kind, id] = /^clinic-package:(\w+):(.*)$/.exec(args.path);
        const target = REPLACED[id] ? `./${REPLACED[id]}` : id;
        const contents =
          kind === 'import'
            ? `import * as namespace from ${JSON.stringify(target)};\nexport { namespace };\n`
            : `module.exports = require(${JSON.stringify(target)});\n`;
        return { contents, loader: 'js', resolveDir: root };
      });
    },
  };
  const result = await build({
    entryPoints: packages.map(([kind, id]) => ({
      in: `clinic-package:${kind}:${id}`,
      out: `${kind}/${encodeURIComponent(id)}`,
    })),
    outdir,
    absWorkingDir: root,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    // Packages that go by their classes' names (oidc-provider keys its stored models by them) keep them.
    keepNames: true,
    metafile: true,
    // A package's own import()s are bundled in too: the executable's main script cannot import files.
    supported: { 'dynamic-import': false },
    // import.meta.url of a package (jq-wasm's and open's look for files beside them): where its bundle would be.
    define: { 'import.meta.url': '__packageUrl', __KEYRING_SHA256__: JSON.stringify(keyringSha256) },
    banner: { js: "var __packageUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [entry],
    ...quiet,
  });
  checkExternals(result.metafile);
  return result.metafile;
}

/** Optional packages that are looked for in a try block and done without (ws's native speed-ups). */
const OPTIONAL = new Set(['bufferutil', 'utf-8-validate']);

/**
 * Inside the executable `require` reaches Node's built-ins alone: a bundle that needs more would fail at run time.
 * (esbuild's metafile lists what each output leaves to `require`.)
 */
function checkExternals(metafile) {
  for (const [file, output] of Object.entries(metafile.outputs)) {
    const foreign = output.imports
      .filter(({ external, path }) => external && !isBuiltin(path) && !OPTIONAL.has(path))
      .map(({ path }) => path);
    if (foreign.length) throw new Error(`${file} needs more than Node's built-ins: ${foreign.join(', ')}`);
  }
}
