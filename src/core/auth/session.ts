// The sign-in of the selected profile: which store holds it, and the token every request sends.
import type { Clock } from '../clock.js';
import type { ProfileChoice, Settings } from '../config/settings.js';
import { AuthError, UsageError } from '../errors.js';
import type { TokenSource } from '../http/client.js';
import {
  type CredentialStore,
  KeychainUnavailableError,
  type StoredCredentials,
  type StoreKind,
} from './credential-store.js';
import { registerSecret } from '../redact.js';
import { expiresSoon } from './expiry.js';

export type StoreFactory = (kind: StoreKind) => CredentialStore;

/** Refreshes an OAuth sign-in (see refresh.ts); `seen` is the sign-in the caller holds. */
export type Refresher = (seen: StoredCredentials, force: boolean) => Promise<StoredCredentials>;

/** The login command for this profile: `--profile NAME` only when the profile was chosen by that flag. */
export function loginCommand(profile: ProfileChoice): string {
  return profile.source === 'flag' ? `clinic --profile ${profile.name} login` : 'clinic login';
}

export const notLoggedInHint = (profile: ProfileChoice) =>
  `run: ${loginCommand(profile)} (or pipe a personal access token to it with --with-token, or set CLINIC_TOKEN)`;

export class Session implements TokenSource {
  private cached?: StoredCredentials;

  constructor(
    private readonly settings: Settings,
    private readonly env: Record<string, string | undefined>,
    private readonly stores: StoreFactory,
    private readonly clock: Clock,
    private readonly refresher?: Refresher,
  ) {}

  get profile(): string {
    return this.settings.profile.name;
  }

  /** CLINIC_TOKEN, used as is: never refreshed, never stored. */
  get envToken(): string | undefined {
    const token = this.env.CLINIC_TOKEN?.trim();
    registerSecret(token);
    return token ? token : undefined;
  }

  /** The store this profile's sign-in lives in: CLINIC_CREDENTIAL_STORE, else where login put it. */
  storeKind(): StoreKind | undefined {
    return this.settings.get('credential_store') as StoreKind | undefined;
  }

  async stored(): Promise<StoredCredentials | undefined> {
    const kind = this.storeKind();
    if (!kind) return undefined;
    try {
      this.cached ??= await this.stores(kind).get(this.profile);
      registerSecret(this.cached?.access_token, this.cached?.refresh_token);
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error;
      throw new AuthError(error.message, 'unlock the keychain, or set CLINIC_TOKEN for this run');
    }
    return this.cached;
  }

  async accessToken(): Promise<string> {
    if (this.envToken) return this.envToken;
    let credentials = await this.stored();
    if (!credentials)
      throw new AuthError(`not logged in (profile ${this.profile})`, notLoggedInHint(this.settings.profile));
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

  private async refresh(seen: StoredCredentials, force: boolean): Promise<StoredCredentials> {
    this.cached = await (this.refresher as Refresher)(seen, force);
    registerSecret(this.cached.access_token, this.cached.refresh_token);
    return this.cached;
  }
}
