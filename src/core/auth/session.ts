// The sign-in of the selected profile: which store holds it, and the token every request sends.
import type { Clock } from '../clock.js';
import { type ProfileChoice, profileCommand, type Settings } from '../config/settings.js';
import { AuthError, UsageError } from '../errors.js';
import type { TokenSource } from '../http/client.js';
import {
  type CredentialStore,
  KeychainUnavailableError,
  type StoredCredentials,
  type StoreKind,
} from './credential-store.js';
import { registerSecret } from '../redact.js';
import { adoptLegacy, requireApiOrigin } from './binding.js';
import { expiresSoon } from './expiry.js';

export type StoreFactory = (kind: StoreKind) => CredentialStore;

/** Refreshes an OAuth sign-in (see refresh.ts); `seen` is the sign-in the caller holds. */
export type Refresher = (seen: StoredCredentials, force: boolean) => Promise<StoredCredentials>;

/** The login command for this profile: `--profile NAME` only when the profile was chosen by that flag. */
export function loginCommand(profile: ProfileChoice, options = ''): string {
  return profileCommand(profile, `${options ? `${options} ` : ''}login`);
}

/** CLINIC_TOKEN when set: set but empty (an empty secret file in a cron job) is a mistake, never "use the store". */
function readEnvToken(env: Record<string, string | undefined>): string | undefined {
  const raw = env.CLINIC_TOKEN;
  if (raw === undefined) return undefined;
  const token = raw.trim();
  if (token === '')
    throw new UsageError(
      'CLINIC_TOKEN is set but empty: give it a token, or unset it to use the stored sign-in',
    );
  // Whatever it holds goes into a header: one token of visible ASCII, no spaces, line breaks or control characters.
  if (!/^[\x21-\x7e]+$/.test(token))
    throw new UsageError('CLINIC_TOKEN must be one token without spaces or control characters');
  return token;
}

/** Keeps the origins an old sign-in was bound to on first use (see binding.ts recordBinding). */
export type BindingKeeper = (bound: StoredCredentials) => Promise<void>;

export const notLoggedInHint = (profile: ProfileChoice) =>
  `run: ${loginCommand(profile)} (or pipe a personal access token to it with --with-token, or set CLINIC_TOKEN)`;

export class Session implements TokenSource {
  private cached?: StoredCredentials;
  /** The sign-in last found bound to the base_url in use. */
  private checked?: StoredCredentials;
  /** The refresh under way: requests that find the token expiring, or answered 401, meanwhile wait for it. */
  private refreshing?: Promise<StoredCredentials>;
  /** CLINIC_TOKEN, used as is: never refreshed, never stored, bound to nothing (its user chose the address). */
  readonly envToken: string | undefined;

  constructor(
    private readonly settings: Settings,
    env: Record<string, string | undefined>,
    private readonly stores: StoreFactory,
    private readonly clock: Clock,
    private readonly refresher?: Refresher,
    private readonly keepBinding?: BindingKeeper,
  ) {
    this.envToken = readEnvToken(env);
    registerSecret(this.envToken);
  }

  get profile(): string {
    return this.settings.profile.name;
  }

  /** The store this profile's sign-in lives in: CLINIC_CREDENTIAL_STORE, else where login put it. */
  storeKind(): StoreKind | undefined {
    return this.settings.get('credential_store');
  }

  async stored(): Promise<StoredCredentials | undefined> {
    if (this.cached) return this.cached; // before reading the settings: asked on every request of a long run
    const kind = this.storeKind();
    if (!kind) return undefined;
    let credentials;
    try {
      credentials = await this.stores(kind).get(this.profile);
      registerSecret(credentials?.access_token, credentials?.refresh_token);
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error;
      throw new AuthError(error.message, 'unlock the keychain, or set CLINIC_TOKEN for this run');
    }
    this.cached = credentials && (await this.bound(credentials));
    return this.cached;
  }

  /** An old sign-in (no origins recorded) is bound now to the profile's own base_url and auth_url, and kept so. */
  private async bound(credentials: StoredCredentials): Promise<StoredCredentials> {
    const bound = adoptLegacy(credentials, this.settings);
    if (bound !== credentials) await this.keepBinding?.(bound).catch(() => undefined); // kept next time, then
    return bound;
  }

  /** How to sign in at the base_url in use (with --base-url when the flag chose it). */
  private signInHint(): string {
    const { value, source } = this.settings.describe('base_url');
    const flag = source === 'flag' && value ? `--base-url ${value}` : '';
    return `run: ${loginCommand(this.settings.profile, flag)}`;
  }

  async accessToken(): Promise<string> {
    if (this.envToken) return this.envToken;
    // A refresh under way (a 401 for a request alongside): its token, not the one it replaces.
    let credentials = this.refreshing ? await this.refreshing : await this.stored();
    if (!credentials)
      throw new AuthError(`not logged in (profile ${this.profile})`, notLoggedInHint(this.settings.profile));
    if (this.checked !== credentials) {
      requireApiOrigin(credentials, this.settings, this.signInHint());
      this.checked = credentials; // once per sign-in read, not on each of a bulk run's requests
    }
    if (expiresSoon(credentials, this.clock.now())) {
      if (!credentials.refresh_token || !this.refresher) {
        throw new AuthError(
          `the access token of profile ${this.profile} has expired`,
          `run: ${loginCommand(this.settings.profile)}`,
        );
      }
      credentials = await this.refresh(credentials, false);
    }
    return credentials.access_token;
  }

  /** After a 401: refresh once when the sign-in can be refreshed; CLINIC_TOKEN and personal tokens cannot. */
  async renewAfterRejection(rejectedToken: string): Promise<boolean> {
    if (this.envToken || !this.refresher) return false;
    const credentials = await this.stored();
    if (!credentials?.refresh_token) return false;
    // Sent before a refresh that has since given a new token (requests in flight together): that one is tried.
    if (credentials.access_token !== rejectedToken && !this.refreshing) return true;
    const seen =
      credentials.access_token === rejectedToken
        ? credentials
        : { ...credentials, access_token: rejectedToken };
    await this.refresh(seen, false);
    return true;
  }

  /** `clinic auth refresh`: a new token pair now. */
  async forceRefresh(): Promise<StoredCredentials> {
    const credentials = await this.stored();
    if (!credentials)
      throw new AuthError(`not logged in (profile ${this.profile})`, notLoggedInHint(this.settings.profile));
    if (!credentials.refresh_token || !this.refresher) {
      throw new UsageError(
        `profile ${this.profile} signed in with a personal access token, which cannot be refreshed`,
      );
    }
    return this.refresh(credentials, true);
  }

  /** One refresh at a time: a request that needs one while another is under way takes its outcome, failure too. */
  private refresh(seen: StoredCredentials, force: boolean): Promise<StoredCredentials> {
    this.refreshing ??= (this.refresher as Refresher)(seen, force)
      .then((fresh) => {
        registerSecret(fresh.access_token, fresh.refresh_token);
        return (this.cached = fresh);
      })
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }
}
