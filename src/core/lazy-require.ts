// A package loaded on first use, synchronously. Modules import their heavy dependencies through this, so the
// bundled CLI (scripts/bundle.mjs) never loads them at start-up: a static import would be hoisted to the top.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
