// Tokens in $CLINIC_CONFIG_DIR/credentials.json (mode 0600, never through a symlink): an explicit choice only.
import { readPrivateFile, writePrivateFile } from '../config/private-file.js';
import { type CredentialStore, parseCredentials, type StoredCredentials } from './credential-store.js';

type FileShape = Record<string, StoredCredentials>;

export class FileStore implements CredentialStore {
  readonly kind = 'file';
  readonly location: string;

  constructor(private readonly path: string) {
    this.location = `${path} (plain text, mode 0600)`;
  }

  async get(profile: string): Promise<StoredCredentials | undefined> {
    const entry = (await this.read())[profile];
    return entry ? parseCredentials(JSON.stringify(entry)) : undefined;
  }

  async set(profile: string, credentials: StoredCredentials): Promise<void> {
    const all = await this.read();
    all[profile] = credentials;
    await writePrivateFile(this.path, `${JSON.stringify(all, null, 2)}\n`);
  }

  async delete(profile: string): Promise<boolean> {
    const all = await this.read();
    if (!(profile in all)) return false;
    delete all[profile];
    await writePrivateFile(this.path, `${JSON.stringify(all, null, 2)}\n`);
    return true;
  }

  private async read(): Promise<FileShape> {
    const text = await readPrivateFile(this.path);
    if (!text) return {};
    try {
      const parsed = JSON.parse(text) as unknown;
      return typeof parsed === 'object' && parsed !== null ? (parsed as FileShape) : {};
    } catch {
      return {};
    }
  }
}
