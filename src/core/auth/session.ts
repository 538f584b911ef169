// The sign-in of the selected profile: which store holds it, and the token every request sends.
import type { Clock } from '../clock.js';
import type { Settings } from '../config/settings.js';
import { AuthError } from '../errors.js';
import type { TokenSource } from '../http/client.js';
import type { CredentialStore, StoredCredentials, StoreKind } from './credential-store.js';

export type StoreFactory = (kind: StoreKind) => CredentialStore;

export const NOT_LOGGED_IN_HINT =
  "run 'clinic login', pipe a personal access token to 'clinic login --with-token', or set CLINIC_TOKEN";

export class Session implements TokenSource {
  private cached?: StoredCredentials;

  constructor(
    private readonly settings: Settings,
    private readonly env: Record<string, string | undefined>,
    private readonly stores: StoreFactory,
    private readonly clock: Clock,
  ) {}

  get profile(): string {
    return this.settings.profile.name;
  }

  /** CLINIC_TOKEN, used as is: never refreshed, never stored. */
  get envToken(): string | undefined {
    const token = this.env.CLINIC_TOKEN?.trim();
    return token ? token : undefined;
  }

  /** The store this profile's sign-in lives in: CLINIC_CREDENTIAL_STORE, else where login put it. */
  storeKind(): StoreKind | undefined {
    return this.settings.get('credential_store') as StoreKind | undefined;
  }

  async stored(): Promise<StoredCredentials | undefined> {
    const kind = this.storeKind();
    if (!kind) return undefined;
    this.cached ??= await this.stores(kind).get(this.profile);
    return this.cached;
  }

  async accessToken(): Promise<string> {
    if (this.envToken) return this.envToken;
    const credentials = await this.stored();
    if (!credentials) throw new AuthError(`not logged in (profile ${this.profile})`, NOT_LOGGED_IN_HINT);
    if (
      credentials.expires_at &&
      Date.parse(credentials.expires_at) <= this.clock.now() &&
      !credentials.refresh_token
    ) {
      throw new AuthError(`the access token of profile ${this.profile} has expired`, "run 'clinic login'");
    }
    return credentials.access_token;
  }

  /** A rejected CLINIC_TOKEN or personal access token cannot be renewed; the OAuth refresh grant plugs in here. */
  async renewAfterRejection(): Promise<boolean> {
    return false;
  }
}
