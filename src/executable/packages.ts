// The single executable has no node_modules: each package the CLI loads on demand (`import('ora')`,
// `lazyRequire('csv-parse')`, the sandbox) is bundled at build time into a CommonJS file of its own, an asset, and
// compiled from there on first use. A package's bundle requires only Node's built-ins.
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { assetText } from './assets.js';

/** How the CLI asks for a package: a dynamic import wants its namespace, CommonJS's require its exports. */
export type PackageKind = 'import' | 'require';

/** The asset of a package's bundle (shared with scripts/package.mjs, which makes them). */
export const packageAsset = (kind: PackageKind, id: string): string =>
  `packages/${kind}/${encodeURIComponent(id)}.cjs`;

/** `require` for Node's built-ins alone, as a package's bundle needs it; anything else is not found (ws's optional
 * `bufferutil`, say), without the warning the executable's own `require` prints for it. */
export function builtinRequire(id: string): unknown {
  const builtin = process.getBuiltinModule(id);
  if (builtin !== undefined) return builtin;
  throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
}

const loaded = new Map<string, unknown>();

function packageExports(kind: PackageKind, id: string): unknown {
  const asset = packageAsset(kind, id);
  if (!loaded.has(asset)) {
    let source: string;
    try {
      source = assetText(asset);
    } catch {
      throw Object.assign(new Error(`Cannot find package '${id}' in this executable`), {
        code: 'MODULE_NOT_FOUND',
      });
    }
    const filename = join(process.execPath, asset);
    const wrapper = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
    const module = { exports: {} };
    new Script(wrapper, { filename }).runInThisContext()(
      module.exports,
      builtinRequire,
      module,
      filename,
      dirname(filename),
    );
    loaded.set(asset, module.exports);
  }
  return loaded.get(asset);
}

/** What a dynamic import of `id` gives: a built-in module, or the namespace of the package's bundle. */
export function importPackage(id: string): unknown {
  return process.getBuiltinModule(id) ?? (packageExports('import', id) as { namespace: unknown }).namespace;
}

/** What CommonJS's require of `id` gives: a built-in module, or the package's exports. */
export function requirePackage(id: string): unknown {
  return process.getBuiltinModule(id) ?? packageExports('require', id);
}
