// Personal access tokens: opaque random strings kept in memory with their user, scopes and expiry.
import { randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'clinic_pat_';
const TOKEN_BODY_LENGTH = 40;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Personal access tokens live six months, as the API document says. */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 183 * 24 * 60 * 60;

export interface AccessToken {
  userId: number;
  scopes: readonly string[];
  expiresAtMs: number;
  /** The OpenID provider's grant behind a JWT access token (none for a personal access token). */
  grantId?: string;
}

export interface IssueTokenOptions {
  userId: number;
  scopes?: string[];
  expiresInSeconds?: number;
}

export class TokenStore {
  private readonly tokens = new Map<string, AccessToken>();

  constructor(
    private readonly userExists: (userId: number) => boolean,
    private readonly now: () => number,
  ) {}

  issue(options: IssueTokenOptions): string {
    if (!this.userExists(options.userId)) throw new Error(`Cannot issue a token: no user ${options.userId}.`);
    const lifetime = options.expiresInSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
    const token = TOKEN_PREFIX + randomBase62(TOKEN_BODY_LENGTH);
    this.tokens.set(token, {
      userId: options.userId,
      scopes: [...(options.scopes ?? ['*'])],
      expiresAtMs: this.now() + lifetime * 1000,
    });
    return token;
  }

  /** The live token behind a bearer string; undefined when unknown or expired. */
  resolve(token: string | undefined): AccessToken | undefined {
    if (token === undefined) return undefined;
    const access = this.tokens.get(token);
    if (access === undefined || access.expiresAtMs <= this.now()) return undefined;
    return access;
  }
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      // Rejecting bytes >= 248 (4 * 62) keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}
