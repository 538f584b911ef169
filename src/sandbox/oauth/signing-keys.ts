// A fresh RS256 key pair per sandbox start: the provider signs with the private half, the API verifies with the public.
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JSONWebKeySet, type JWK } from 'jose';

export interface SigningKeys {
  /** For oidc-provider's `jwks` (its own fixed dev keys would print a warning and be shared by everyone). */
  privateJwk: JWK & { kid: string };
  /** For jose's createLocalJWKSet: the API checks tokens in-process, without fetching /oauth/jwks. */
  publicJwks: JSONWebKeySet;
}

export async function generateSigningKeys(): Promise<SigningKeys> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const common = { kid, alg: 'RS256', use: 'sig' };
  return {
    privateJwk: { ...(await exportJWK(privateKey)), ...common },
    publicJwks: { keys: [{ ...publicJwk, ...common }] },
  };
}
