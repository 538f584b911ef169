// @napi-rs/keyring's index.js inside the single executable (scripts/package.mjs puts this in its place): the same
// exports, from the platform binary shipped as an asset and loaded from its checked private copy (native-binary.ts).
import { assetBytes } from './assets.js';
import { loadNativeBinary, nativeCacheDir } from './native-binary.js';

/** The binary's sha256, recorded by scripts/package.mjs when it put the binary in. */
declare const __KEYRING_SHA256__: string;

const binding = loadNativeBinary(
  { name: 'keyring', sha256: __KEYRING_SHA256__, bytes: () => assetBytes('native/keyring.node') },
  nativeCacheDir(process.env),
) as Record<string, unknown>;

export const { AsyncEntry, Entry, findCredentials, findCredentialsAsync, LinuxStore } = binding;
