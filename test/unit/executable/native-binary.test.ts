// The keyring's native binary inside the single executable: written once to a private copy, checked by its sha256
// before every load, rewritten when it differs, and never loaded where it cannot be kept privately.
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadNativeBinary, type NativeBinary, privateCopy } from '../../../src/executable/native-binary.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const bytes = new TextEncoder().encode('pretend this is a shared object');
const binary = (body = bytes, recorded = sha256(bytes)): NativeBinary & { reads: number } => {
  const made = { name: 'thing', sha256: recorded, reads: 0, bytes: () => (made.reads++, body) };
  return made;
};
const mode = (path: string) => lstatSync(path).mode & 0o777;

describe('a private copy of a native binary', () => {
  const temp = useTempDir('clinic-native-');
  const dir = () => join(temp.path, 'cache', 'clinic', 'native');

  it('is written once, in a 0700 folder, as a 0500 file named by its hash, and reused while it holds the bytes', () => {
    const thing = binary();
    const path = privateCopy(thing, dir());
    expect(path).toBe(join(dir(), `thing-${sha256(bytes).slice(0, 16)}.node`));
    expect(readFileSync(path)).toEqual(Buffer.from(bytes));
    expect(mode(dir())).toBe(0o700);
    expect(mode(path)).toBe(0o500);
    const { ino, mtimeMs } = statSync(path);
    expect(privateCopy(thing, dir())).toBe(path);
    expect(statSync(path)).toMatchObject({ ino, mtimeMs });
    expect(thing.reads).toBe(1);
  });

  it('is rewritten when its bytes differ from the recorded hash (damaged or replaced)', () => {
    const path = privateCopy(binary(), dir());
    chmodSync(path, 0o600);
    writeFileSync(path, 'something else');
    chmodSync(path, 0o500);
    expect(privateCopy(binary(), dir())).toBe(path);
    expect(readFileSync(path)).toEqual(Buffer.from(bytes));
  });

  it('replaces a symbolic link at its place instead of following it, and one another user could write to', () => {
    mkdirSync(dir(), { recursive: true, mode: 0o700 });
    const elsewhere = join(temp.path, 'elsewhere.node');
    writeFileSync(elsewhere, bytes);
    const path = join(dir(), `thing-${sha256(bytes).slice(0, 16)}.node`);
    symlinkSync(elsewhere, path);
    expect(privateCopy(binary(), dir())).toBe(path);
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    chmodSync(path, 0o622);
    privateCopy(binary(), dir());
    expect(mode(path)).toBe(0o500);
  });

  it('makes a folder of its own that others could enter private', () => {
    mkdirSync(dir(), { recursive: true, mode: 0o755 });
    chmodSync(dir(), 0o755);
    privateCopy(binary(), dir());
    expect(mode(dir())).toBe(0o700);
  });

  it('refuses a folder that is a symbolic link, writing and loading nothing', () => {
    mkdirSync(join(temp.path, 'cache', 'clinic'), { recursive: true });
    mkdirSync(join(temp.path, 'other'));
    symlinkSync(join(temp.path, 'other'), dir());
    const thing = binary();
    expect(() => privateCopy(thing, dir())).toThrow(
      /cannot keep the thing binary privately in .*: .* is not a folder/,
    );
    expect(thing.reads).toBe(0);
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a folder that belongs to another user', () => {
    mkdirSync(dir(), { recursive: true, mode: 0o700 });
    chownSync(dir(), 65534, 65534);
    expect(() => privateCopy(binary(), dir())).toThrow(/belongs to another user/);
  });

  it('writes nothing when the bytes inside the executable are not the ones recorded at build time', () => {
    const damaged = binary(new TextEncoder().encode('damaged'), sha256(bytes));
    expect(() => privateCopy(damaged, dir())).toThrow(/inside this executable is damaged/);
    expect(() => statSync(join(dir(), `thing-${sha256(bytes).slice(0, 16)}.node`))).toThrow(/ENOENT/);
  });
});

/**
 * The keyring's real prebuilt binary on Linux x64, when installed: an install with --omit=optional (as on a machine
 * without system packages) has none, and the tests that load it are skipped there.
 */
const keyringFile = ((): string | undefined => {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  try {
    return createRequire(import.meta.url).resolve(
      '@napi-rs/keyring-linux-x64-gnu/keyring.linux-x64-gnu.node',
    );
  } catch {
    return undefined;
  }
})();
const real = keyringFile !== undefined;

describe('loading it', () => {
  const temp = useTempDir('clinic-native-');

  it.skipIf(!real)("loads the keyring's real binary from its checked copy", () => {
    const body = new Uint8Array(readFileSync(keyringFile!));
    const binding = loadNativeBinary({ name: 'keyring', sha256: sha256(body), bytes: () => body }, temp.path);
    expect(typeof (binding as { AsyncEntry: unknown }).AsyncEntry).toBe('function');
  });

  it.skipIf(!real)('loads nothing when the copy cannot be made to hold the recorded bytes', () => {
    const body = new Uint8Array(readFileSync(keyringFile!));
    const wrong = { name: 'keyring', sha256: sha256(bytes), bytes: () => body };
    expect(() => loadNativeBinary(wrong, temp.path)).toThrow(/damaged/);
  });
});

describe('loading it, when the copy is swapped between the check and the load', () => {
  const temp = useTempDir('clinic-native-');

  it.skipIf(!real)('loads the bytes it checked, not what the name points to by then', () => {
    const body = new Uint8Array(readFileSync(keyringFile!));
    const copy = join(temp.path, `keyring-${sha256(body).slice(0, 16)}.node`);
    const dlopen = process.dlopen.bind(process);
    // Another user who may rename in a folder above swaps the checked copy for a file of theirs just before the load.
    const spy = vi.spyOn(process, 'dlopen').mockImplementation((module, filename, flags) => {
      renameSync(copy, `${copy}.checked`);
      writeFileSync(copy, 'not the binary that was checked');
      return flags === undefined ? dlopen(module, filename) : dlopen(module, filename, flags);
    });
    try {
      const binding = loadNativeBinary(
        { name: 'keyring', sha256: sha256(body), bytes: () => body },
        temp.path,
      );
      expect(typeof (binding as { AsyncEntry: unknown }).AsyncEntry).toBe('function');
      expect(spy.mock.calls[0]?.[1]).toMatch(/^\/proc\/self\/fd\/\d+$/);
    } finally {
      spy.mockRestore();
    }
  });
});
