// jq-wasm inside the single executable (scripts/package.mjs bundles this in its place): jq's WebAssembly comes from
// the executable's assets, as there is no jq.wasm file beside it.
import { type JqLoadOptions, loadJq as loadJqFrom } from 'jq-wasm';
import { assetBytes } from './assets.js';

export * from 'jq-wasm';

export const loadJq = (options?: JqLoadOptions) =>
  loadJqFrom(options ?? { wasmBinary: assetBytes('jq.wasm') });
