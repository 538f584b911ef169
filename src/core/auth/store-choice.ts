// Which store a login writes to: the keychain unless the user explicitly chose the plain file.
import type { Env } from '../config/paths.js';
import { UsageError } from '../errors.js';
import type { StoreKind } from './credential-store.js';

/**
 * `--insecure-storage`, else CLINIC_CREDENTIAL_STORE, else the profile's `credential_store` (what an earlier
 * `login --insecure-storage` or `config set credential_store file` chose for it: signing in again keeps to it), else
 * the keychain.
 */
export function storeForLogin(insecureStorage: boolean, env: Env, profileChoice?: unknown): StoreKind {
  const forced = env.CLINIC_CREDENTIAL_STORE;
  if (forced !== undefined && forced !== '' && forced !== 'keychain' && forced !== 'file') {
    throw new UsageError(`CLINIC_CREDENTIAL_STORE must be keychain or file, got '${forced}'`);
  }
  if (insecureStorage) {
    if (forced === 'keychain')
      throw new UsageError('--insecure-storage contradicts CLINIC_CREDENTIAL_STORE=keychain');
    return 'file';
  }
  if (forced === 'file' || forced === 'keychain') return forced;
  return profileChoice === 'file' ? 'file' : 'keychain';
}

/** Login's one sentence when the keychain cannot keep the sign-in: why, in plain words, and the two ways on. */
export function noKeychainMessage(reason: string): string {
  return (
    `the OS keychain cannot keep the sign-in (${reason}), so nothing was stored: log in again with ` +
    '--insecure-storage (or CLINIC_CREDENTIAL_STORE=file) to keep the token in a 0600 file under the config ' +
    'directory, or set CLINIC_TOKEN for scripts and cron jobs'
  );
}
