// The single executable's installation, handed to bin/clinic.js's startCli (the executable's main script is both,
// bundled by scripts/package.mjs): the files bin reads from the npm package come from the executable's assets, and
// the bundled CLI is compiled from the code cache the build made for it, so nothing is compiled at start-up that
// a command's usual run needs.
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import type { Executable } from '../core/executable.js';
import { assetAscii, assetText, assetView } from './assets.js';
import { builtinRequire, importPackage, requirePackage } from './packages.js';

declare const __CLINIC_VERSION__: string;

/**
 * The assets of the bundled CLI and of its code cache. The bundle is dist/bundle/main.cjs, as npm ships it, already
 * wrapped (wrapBundle) by the build: V8 compiles the asset's text as it is, with no copy made to wrap it.
 */
export const BUNDLE_ASSET = 'dist/bundle/main.function.cjs';
export const BUNDLE_CACHE_ASSET = 'dist/bundle/main.cjs.executable-cache';
/**
 * The asset of the code cache made of one warmed command alone (`shape`: bin/clinic.js's shapeName of its run), which
 * a run like it takes: only what it runs, a quarter less for V8 to read (scripts/package/bundle-cache.mjs).
 */
export const shapeCacheAsset = (shape: string): string => `${BUNDLE_CACHE_ASSET}.${shape}`;
/** The bundle's name in stack traces. */
const BUNDLE_FILE = 'dist/bundle/main.cjs';

/**
 * The bundle as one function of what it is handed: a module's five, `__dyni` (its dynamic import, see
 * scripts/bundle.mjs) and `__executable` (src/core/executable.ts). The asset and its code cache are made of this
 * very text (scripts/package.mjs, scripts/package/bundle-cache.mjs).
 */
export const wrapBundle = (source: string): string =>
  `(function (exports, require, module, __filename, __dirname, __dyni, __executable) {${source}\n})`;

export const executableHooks: Executable = {
  loadPackage: requirePackage,
  shippedFile: assetText,
};

type Main = (argv: string[], deps: unknown) => Promise<number>;

/** Compiles and runs the wrapped bundle (from `cachedData` when V8 takes it): its `main`, and the script. */
export function runBundle(wrapped: string, filename: string, cachedData?: Uint8Array) {
  const script = new Script(wrapped, { filename, cachedData });
  const bundle = { exports: {} as { main: Main } };
  const dynamicImport = (id: string) => Promise.resolve().then(() => importPackage(id));
  script.runInThisContext()(
    bundle.exports,
    builtinRequire,
    bundle,
    filename,
    dirname(filename),
    dynamicImport,
    executableHooks,
  );
  return { main: bundle.exports.main, script };
}

/** The cache made of the run's command alone where there is one, else the cache of every warmed command. */
function buildCache(shape: string | undefined): Uint8Array {
  if (shape)
    try {
      return assetView(shapeCacheAsset(shape));
    } catch {
      // No such asset: the build warmed no run like this one.
    }
  return assetView(BUNDLE_CACHE_ASSET);
}

export const installation = {
  version: (): string => __CLINIC_VERSION__,
  helpTexts: (): unknown => JSON.parse(assetText('dist/help.json')),
  /**
   * The CLI; without `useCache` (--debug, CLINIC_NO_COMPILE_CACHE) compiled from the source alone. `shape` names the
   * run's own cache, if the build warmed a run like it.
   */
  loadBundle(useCache: boolean, shape?: string): { main: Main; saveCache(): void } {
    const cachedData = useCache && !process.env.CLINIC_NO_COMPILE_CACHE ? buildCache(shape) : undefined;
    const { main } = runBundle(assetAscii(BUNDLE_ASSET), join(process.execPath, BUNDLE_FILE), cachedData);
    // The build's cache holds what commands run; the executable writes none of its own.
    return { main, saveCache() {} };
  },
};
