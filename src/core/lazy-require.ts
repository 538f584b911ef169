// A package loaded on first use, synchronously. Modules import their heavy dependencies through this, so the
// bundled CLI (scripts/bundle.mjs) never loads them at start-up: a static import would be loaded with its module.
import type { createRequire as CreateRequire } from 'node:module';
import { executable } from './executable.js';

let requireHere: ((id: string) => unknown) | undefined;

export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  // Node's own modules need no resolving: node:module (half a millisecond) loads only for a package.
  if (id.startsWith('node:')) return () => (loaded ??= process.getBuiltinModule(id) as T);
  return () => {
    // node:module itself is fetched only now (process.getBuiltinModule: Node >= 20.16). The single executable has
    // no node_modules: it serves packages from its assets.
    requireHere ??=
      executable?.loadPackage ??
      (process.getBuiltinModule('node:module') as { createRequire: typeof CreateRequire }).createRequire(
        import.meta.url,
      );
    return (loaded ??= requireHere(id) as T);
  };
}
