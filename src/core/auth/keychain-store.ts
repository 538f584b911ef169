// Tokens in the OS keychain through keytar's interface, served by @napi-rs/keyring (prebuilt, no native build):
// service `clinic-cli`, account = profile, each call time-limited.
import {
  type CredentialStore,
  KeychainUnavailableError,
  parseCredentials,
  type StoredCredentials,
} from './credential-store.js';
import { lazyRequire } from '../lazy-require.js';

export const KEYCHAIN_SERVICE = 'clinic-cli';
const CALL_TIMEOUT_MS = 3000;
/** The account of doctor's throwaway entry: no profile name starts with 'clinic-doctor-probe-' plus a random tail. */
export const PROBE_ACCOUNT_PREFIX = 'clinic-doctor-probe-';

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

/**
 * What a keychain library error means, in words for a user of clinic (its own text, D-Bus names and all, is kept
 * for --debug).
 */
export function keychainErrorInWords(message: string): string {
  if (/AccessDenied|access (is )?denied|permission denied|not permitted|not authori[sz]ed/i.test(message))
    return 'access was denied';
  if (/locked|dismissed|cancell?ed/i.test(message)) return 'the keychain is locked';
  if (/D-?Bus|DISPLAY|ServiceUnknown|NameHasNoOwner|freedesktop|secret service|secure storage/i.test(message))
    return 'no keychain service (Secret Service) can be reached';
  return 'the keychain reported an error';
}

/** @napi-rs/keyring, CommonJS, so required: a dynamic import would start Node's ES module loader (some 6 ms). */
const keyring = lazyRequire<typeof import('@napi-rs/keyring')>('@napi-rs/keyring');

/**
 * keytar's interface over the keyring's entries, pinned on Linux to the Secret Service. Left to itself, the keyring
 * falls back to the kernel's keyring where no Secret Service answers (no D-Bus session): a sign-in kept there goes
 * with the next reboot or within days, and whether a call reaches it depends on the thread it runs on, so a logout
 * could say "deleted" of a sign-in still kept in the Secret Service. Pinned, no Secret Service is an error.
 */
function secretServiceKeytar(): Keytar {
  const { AsyncEntry } = keyring();
  const entry = (service: string, account: string) =>
    new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
  return {
    getPassword: (service, account) => entry(service, account).getPassword(),
    setPassword: (service, account, password) => entry(service, account).setPassword(password),
    deletePassword: (service, account) => entry(service, account).deletePassword(),
  };
}

/** The keyring's platform binary is an optional package: when it is missing, there is simply no keychain. */
const loadKeytar: KeytarLoader = async () => {
  try {
    return secretServiceKeytar();
  } catch (error) {
    const { message } = error as Error;
    throw new KeychainUnavailableError(
      keychainMissingReason(message),
      'the keychain library is not installed on this machine',
      message.split('\n')[0],
    );
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

  /**
   * Proves the keychain can keep a sign-in, as reading alone does not (a read of a missing entry succeeds where a
   * write is refused): writes a throwaway entry under a distinct account, reads it back and deletes it, all within
   * one time limit. The entry is deleted whatever happened before.
   */
  async probe(): Promise<void> {
    const account = `${PROBE_ACCOUNT_PREFIX}${globalThis.crypto.randomUUID()}`;
    const secret = globalThis.crypto.randomUUID();
    const step = async <T>(what: string, action: () => Promise<T>): Promise<T> => {
      try {
        return await action();
      } catch (error) {
        throw this.unusable(what, error);
      }
    };
    await this.call('use', async (k) => {
      try {
        await step('store a test entry in', () => k.setPassword(KEYCHAIN_SERVICE, account, secret));
        const back = await step('read a test entry back from', () =>
          k.getPassword(KEYCHAIN_SERVICE, account),
        );
        if (back !== secret)
          throw new KeychainUnavailableError(
            'the keychain gave back something other than the test entry written to it',
          );
      } catch (error) {
        await k.deletePassword(KEYCHAIN_SERVICE, account).catch(() => false);
        throw error;
      }
      const deleted = await step('delete a test entry from', () =>
        k.deletePassword(KEYCHAIN_SERVICE, account),
      );
      if (!deleted)
        throw new KeychainUnavailableError(
          'the keychain could not find the test entry written to it to delete it',
        );
    });
  }

  private unusable(what: string, error: unknown): KeychainUnavailableError {
    if (error instanceof KeychainUnavailableError) return error;
    const detail = (error as Error).message.split('\n')[0] ?? '';
    const reason = keychainErrorInWords(detail);
    return new KeychainUnavailableError(`cannot ${what} the keychain: ${reason}`, reason, detail);
  }

  private async call<T>(what: string, action: (keytar: Keytar) => Promise<T>): Promise<T> {
    this.keytar ??= Promise.resolve().then(() => this.load());
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      const late = `the keychain did not answer within ${this.timeoutMs / 1000}s`;
      timer = setTimeout(
        () =>
          reject(new KeychainUnavailableError(late, `it did not answer within ${this.timeoutMs / 1000}s`)),
        this.timeoutMs,
      );
      timer.unref();
    });
    try {
      return await Promise.race([this.keytar.then(action), timeout]);
    } catch (error) {
      throw this.unusable(what, error);
    } finally {
      clearTimeout(timer);
    }
  }
}
