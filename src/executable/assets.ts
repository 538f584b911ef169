// The single executable's assets (scripts/package.mjs lists them in its sea-config.json): read by their names.
import { getAsset } from 'node:sea';

export const assetBytes = (name: string): Uint8Array => new Uint8Array(getAsset(name));

export const assetText = (name: string): string => getAsset(name, 'utf8');
