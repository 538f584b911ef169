// Tokens in the OS keychain through keytar's interface, served by @napi-rs/keyring (prebuilt, no native build):
// service `clinic-cli`, account = profile, each call time-limited.
import {
  type CredentialStore,
  KeychainUnavailableError,
  parseCredentials,
  type StoredCredentials,
} from './credential-store.js';

export const KEYCHAIN_SERVICE = 'clinic-cli';
const CALL_TIMEOUT_MS = 3000;

interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export type KeytarLoader = () => Promise<Keytar>;

/** Why the keychain library could not load, in words for a user of clinic. */
export function keychainMissingReason(
  message: string,
  platform = `${process.platform}-${process.arch}`,
): string {
  // napi-rs's own text blames npm and says to delete package-lock.json: not what a user of clinic should do.
  const why = message.includes('Cannot find native binding')
    ? `no prebuilt binary of @napi-rs/keyring for ${platform} is installed (an install with --omit=optional ` +
      'leaves it out)'
    : message.split('\n')[0];
  return `the keychain library is not available on this machine: ${why}`;
}

/** The keyring's platform binary is an optional package: when it is missing, there is simply no keychain. */
const loadKeytar: KeytarLoader = async () => {
  try {
    return await import('@napi-rs/keyring/keytar.js');
  } catch (error) {
    throw new KeychainUnavailableError(keychainMissingReason((error as Error).message));
  }
};

export class KeychainStore implements CredentialStore {
  readonly kind = 'keychain';
  readonly location = `OS keychain (service ${KEYCHAIN_SERVICE})`;
  private keytar?: Promise<Keytar>;

  constructor(
    private readonly load: KeytarLoader = loadKeytar,
    private readonly timeoutMs = CALL_TIMEOUT_MS,
  ) {}

  async get(profile: string): Promise<StoredCredentials | undefined> {
    return parseCredentials(await this.call('read', (k) => k.getPassword(KEYCHAIN_SERVICE, profile)));
  }

  async set(profile: string, credentials: StoredCredentials): Promise<void> {
    await this.call('write', (k) => k.setPassword(KEYCHAIN_SERVICE, profile, JSON.stringify(credentials)));
  }

  async delete(profile: string): Promise<boolean> {
    return this.call('delete', (k) => k.deletePassword(KEYCHAIN_SERVICE, profile));
  }

  private async call<T>(what: string, action: (keytar: Keytar) => Promise<T>): Promise<T> {
    this.keytar ??= Promise.resolve().then(() => this.load());
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new KeychainUnavailableError(`the keychain did not answer within ${this.timeoutMs / 1000}s`),
          ),
        this.timeoutMs,
      );
      timer.unref();
    });
    try {
      return await Promise.race([this.keytar.then(action), timeout]);
    } catch (error) {
      if (error instanceof KeychainUnavailableError) throw error;
      throw new KeychainUnavailableError(
        `cannot ${what} the keychain: ${(error as Error).message.split('\n')[0]}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }
}
