// Tokens in $CLINIC_CONFIG_DIR/credentials.json (mode 0600, never through a symlink): an explicit choice only.
// The map is keyed by profile name, the user's data: it has no prototype, so `constructor` or `__proto__` is a name.
import { dict, isRecord, own } from '../config/config-file.js';
import {
  type ModeNotice,
  readPrivateFile,
  UnsafeFileError,
  writePrivateFile,
} from '../config/private-file.js';
import { withLock } from '../lock.js';
import { type CredentialStore, parseCredentials, type StoredCredentials } from './credential-store.js';

type FileShape = Record<string, StoredCredentials>;

export class FileStore implements CredentialStore {
  readonly kind = 'file';
  readonly location: string;

  constructor(
    private readonly path: string,
    private readonly notice?: ModeNotice,
  ) {
    this.location = `${path} (plain text, mode 0600)`;
  }

  async get(profile: string): Promise<StoredCredentials | undefined> {
    const entry = own(await this.read(), profile);
    return entry ? parseCredentials(JSON.stringify(entry)) : undefined;
  }

  async set(profile: string, credentials: StoredCredentials): Promise<void> {
    await this.change((all) => {
      all[profile] = credentials;
      return true;
    });
  }

  async delete(profile: string): Promise<boolean> {
    return this.change((all) => {
      if (!Object.hasOwn(all, profile)) return false;
      delete all[profile];
      return true;
    });
  }

  /** Read, change one profile, write back: under a lock, so two profiles written at once never undo each other. */
  private change(edit: (all: FileShape) => boolean): Promise<boolean> {
    return withLock(this.path, async () => {
      const all = await this.read();
      if (!edit(all)) return false;
      await writePrivateFile(this.path, `${JSON.stringify(all, null, 2)}\n`);
      return true;
    });
  }

  private async read(): Promise<FileShape> {
    const text = await readPrivateFile(this.path, this.notice);
    if (!text?.trim()) return dict<StoredCredentials>();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!isRecord(parsed)) {
      // Never "repair" it by writing over other profiles' sign-ins.
      throw new UnsafeFileError(`${this.path} is not a JSON object; fix it or delete it and log in again`);
    }
    const all = dict<StoredCredentials>();
    for (const [profile, entry] of Object.entries(parsed)) all[profile] = entry as StoredCredentials;
    return all;
  }
}
