// The single executable's assets (scripts/package.mjs lists them in its sea-config.json): read by their names.
import { getAsset, getRawAsset } from 'node:sea';

export const assetBytes = (name: string): Uint8Array => new Uint8Array(getAsset(name));

/** The asset's bytes where the executable holds them, not copied: for a reader that never writes (V8's code cache). */
export const assetView = (name: string): Uint8Array => new Uint8Array(getRawAsset(name) as ArrayBuffer);

export const assetText = (name: string): string => getAsset(name, 'utf8');

/**
 * An asset of printable ASCII (the wrapped bundle: scripts/bundle.mjs checks) as a string, copied once, straight from
 * where the executable holds it into V8's one-byte string: no copy of the bytes first, no UTF-8 decoding.
 */
export const assetAscii = (name: string): string =>
  Buffer.from(getRawAsset(name) as ArrayBuffer).toString('latin1');
