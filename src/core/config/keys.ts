// The profile keys users may set, their environment overrides and how a value is checked.
import { UsageError } from '../errors.js';
import { requireSecureUrl } from '../secure-url.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface KeySpec {
  key: string;
  env: string;
  description: string;
  /** Returns the normalised value or throws UsageError. */
  check?: (value: string) => string;
}

const url = (key: string) => (value: string) => {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new UsageError(`${key} must be an http(s) URL, got '${value}'`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`${key} must be an http(s) URL, got '${value}'`);
  }
  return value.replace(/\/+$/, '');
};

/** A URL the bearer token is sent to: https, or clear-text http on this machine only (the sandbox). */
const tokenUrl = (key: string) => (value: string) => {
  const checked = url(key)(value);
  requireSecureUrl(checked, key);
  return checked;
};

const positiveInteger = (key: string) => (value: string) => {
  if (!/^[1-9]\d*$/.test(value))
    throw new UsageError(`${key} must be a positive whole number, got '${value}'`);
  return value;
};

const oneOf = (key: string, values: readonly string[]) => (value: string) => {
  if (!values.includes(value))
    throw new UsageError(`${key} must be one of ${values.join(', ')}, got '${value}'`);
  return value;
};

export const CONFIG_KEYS: readonly KeySpec[] = [
  {
    key: 'base_url',
    env: 'CLINIC_BASE_URL',
    description: 'API base, ending in /api',
    check: tokenUrl('base_url'),
  },
  { key: 'auth_url', env: 'CLINIC_AUTH_URL', description: 'OAuth server root', check: tokenUrl('auth_url') },
  { key: 'client_id', env: 'CLINIC_CLIENT_ID', description: 'OAuth client id of a public (PKCE) client' },
  { key: 'scopes', env: 'CLINIC_SCOPES', description: 'scopes asked for at login (default "openid *")' },
  {
    key: 'tenant',
    env: 'CLINIC_TENANT',
    description: 'default tenant id sent as X-Tenant',
    check: positiveInteger('tenant'),
  },
  {
    key: 'output',
    env: 'CLINIC_OUTPUT',
    description: 'default output format',
    check: oneOf('output', OUTPUT_FORMATS),
  },
  { key: 'realtime.key', env: 'CLINIC_REALTIME_KEY', description: 'Pusher app key' },
  { key: 'realtime.cluster', env: 'CLINIC_REALTIME_CLUSTER', description: 'Pusher cluster (hosted Pusher)' },
  { key: 'realtime.host', env: 'CLINIC_REALTIME_HOST', description: 'self-hosted Pusher-protocol host' },
  {
    key: 'realtime.port',
    env: 'CLINIC_REALTIME_PORT',
    description: 'self-hosted Pusher-protocol port',
    check: positiveInteger('realtime.port'),
  },
  {
    key: 'realtime.tls',
    env: 'CLINIC_REALTIME_TLS',
    description: 'use TLS for realtime (true|false)',
    check: oneOf('realtime.tls', ['true', 'false']),
  },
  {
    key: 'realtime.auth_endpoint',
    env: 'CLINIC_REALTIME_AUTH_ENDPOINT',
    description: 'private-channel authorization URL',
    check: tokenUrl('realtime.auth_endpoint'),
  },
  {
    key: 'credential_store',
    env: 'CLINIC_CREDENTIAL_STORE',
    description: 'where tokens are kept: keychain|file (set by login)',
    check: oneOf('credential_store', ['keychain', 'file']),
  },
];

export const DEFAULTS: Readonly<Record<string, string>> = { scopes: 'openid *' };

export function keySpec(key: string): KeySpec {
  const spec = CONFIG_KEYS.find((candidate) => candidate.key === key);
  if (!spec) {
    throw new UsageError(
      `unknown config key '${key}'; known keys: ${CONFIG_KEYS.map((k) => k.key).join(', ')}`,
    );
  }
  return spec;
}

export function checkValue(key: string, value: string): string {
  const spec = keySpec(key);
  return spec.check ? spec.check(value) : value;
}
