// The profile keys users may set, their environment overrides, how a value is checked and the type it is read as.
import { UsageError } from '../errors.js';
import { isPositiveInteger, trimEnd } from '../plain-text.js';
import { requireSecureUrl } from '../secure-url.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const CREDENTIAL_STORES = ['keychain', 'file'] as const;
export type CredentialStoreKind = (typeof CREDENTIAL_STORES)[number];

/** What each key holds once checked: the type `Settings.get(key)` returns. */
export interface SettingValues {
  base_url: string;
  auth_url: string;
  client_id: string;
  scopes: string;
  /** Kept as its text: it is sent as X-Tenant and shown as given. */
  tenant: string;
  output: OutputFormat;
  'realtime.key': string;
  'realtime.cluster': string;
  'realtime.host': string;
  'realtime.port': number;
  'realtime.tls': boolean;
  'realtime.auth_endpoint': string;
  credential_store: CredentialStoreKind;
}

export type SettingKey = keyof SettingValues;

/** How a key's text is checked and read; `key` names it in errors. */
interface ValueKind<T> {
  /** The normalised text (what `config set` stores and `config get` shows), or a UsageError. */
  check(key: string, text: string): string;
  /** Checked text → the value the code works with. */
  read(key: string, text: string): T;
}

const plain: ValueKind<string> = { check: (_key, text) => text, read: (_key, text) => text };

/** A URL the bearer token is sent to: http(s), and clear-text http on this machine only (the sandbox). */
const tokenUrl: ValueKind<string> = {
  check(key, text) {
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      // A value with a user part may hold a password: never echoed.
      throw new UsageError(
        `${key} must be an http(s) URL, got ${text.includes('@') ? 'something else' : `'${text}'`}`,
      );
    }
    // Parts no request carries, dropped in silence otherwise; a password, or a token in a query, would be shown
    // wherever the URL is, so none of them is echoed here either: the origin and path are enough to find it.
    const where = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
    if (parsed.username !== '' || parsed.password !== '')
      throw new UsageError(`${key} must not hold a user name or password (the token is what signs in)`);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new UsageError(`${key} must be an http(s) URL, got ${parsed.protocol} (${where})`);
    if (parsed.search !== '' || text.includes('?'))
      throw new UsageError(`${key} must not have a query ('?…'; requests add their own): ${where}`);
    if (parsed.hash !== '' || text.includes('#'))
      throw new UsageError(`${key} must not have a fragment ('#…'): ${where}`);
    const checked = trimEnd(text, '/');
    requireSecureUrl(checked, key);
    return checked;
  },
  read: (_key, text) => text,
};

/** A tenant's id; a slug or name given instead is pointed to `tenants use`, which looks one up. */
const tenantId: ValueKind<string> = {
  check(key, text) {
    if (isPositiveInteger(text)) return text;
    const slug = /^[a-z0-9][a-z0-9-]{0,62}$/i.test(text) ? text : 'SLUG';
    throw new UsageError(
      `${key} must be a positive whole number (a tenant's id), got '${text}': \`clinic tenants use ${slug}\` ` +
        "saves a tenant by its slug, and `clinic tenants list` shows each one's id",
    );
  },
  read: (_key, text) => text,
};
/** A TCP port, 1 to 65535. */
const port: ValueKind<number> = {
  check(key, text) {
    if (!isPositiveInteger(text) || Number(text) > 65_535)
      throw new UsageError(`${key} must be a port from 1 to 65535, got '${text}'`);
    return text;
  },
  read: (_key, text) => Number(text),
};

/** A hosted Pusher cluster (`eu`, `us2`, `ap-southeast-1`): a part of a host name (ws-CLUSTER.pusher.com). */
const clusterName: ValueKind<string> = {
  check(key, text) {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(text))
      throw new UsageError(`${key} must be a cluster name such as eu or us2, got '${text}'`);
    return text;
  },
  read: (_key, text) => text,
};

/** A host name or an IP address (an IPv6 one in brackets or not), nothing more: no port, path or spaces. */
const hostName: ValueKind<string> = {
  check(key, text) {
    const bracketed = text.includes(':') && !text.startsWith('[') ? `[${text}]` : text;
    let host: string | undefined;
    try {
      host = new URL(`http://${bracketed}/`).host;
    } catch {
      // refused below
    }
    if (!text || host !== bracketed.toLowerCase())
      throw new UsageError(`${key} must be a host name or an IP address, got '${text}'`);
    return text;
  },
  read: (_key, text) => text,
};

function oneOf<V extends string>(values: readonly V[]): ValueKind<V> {
  const check = (key: string, text: string): V => {
    const value = values.find((candidate) => candidate === text);
    if (value === undefined)
      throw new UsageError(`${key} must be one of ${values.join(', ')}, got '${text}'`);
    return value;
  };
  return { check, read: check };
}

const trueOrFalse = oneOf(['true', 'false']);
const yesNo: ValueKind<boolean> = {
  check: trueOrFalse.check,
  read: (key, text) => trueOrFalse.read(key, text) === 'true',
};

interface Declared<T> {
  env: string;
  description: string;
  kind: ValueKind<T>;
  /** What the CLI does when the key is set nowhere and has no default value (`config get` says it). */
  unset?: string;
}

/** Every key, in the order `config list` shows them; each declares the type it is read as. */
const DECLARED: { readonly [K in SettingKey]: Declared<SettingValues[K]> } = {
  base_url: { env: 'CLINIC_BASE_URL', description: 'API base, ending in /api', kind: tokenUrl },
  auth_url: { env: 'CLINIC_AUTH_URL', description: 'OAuth server root', kind: tokenUrl },
  client_id: {
    env: 'CLINIC_CLIENT_ID',
    description: 'OAuth client id of a public (PKCE) client',
    kind: plain,
  },
  scopes: {
    env: 'CLINIC_SCOPES',
    description: 'scopes asked for at login (default "openid *")',
    kind: plain,
  },
  tenant: { env: 'CLINIC_TENANT', description: 'default tenant id sent as X-Tenant', kind: tenantId },
  output: {
    env: 'CLINIC_OUTPUT',
    description: 'default output format',
    kind: oneOf(OUTPUT_FORMATS),
    unset: 'commands print a table on a terminal, json otherwise',
  },
  'realtime.key': { env: 'CLINIC_REALTIME_KEY', description: 'Pusher app key', kind: plain },
  'realtime.cluster': {
    env: 'CLINIC_REALTIME_CLUSTER',
    description: 'Pusher cluster (hosted Pusher)',
    kind: clusterName,
  },
  'realtime.host': {
    env: 'CLINIC_REALTIME_HOST',
    description: 'self-hosted Pusher-protocol host',
    kind: hostName,
  },
  'realtime.port': {
    env: 'CLINIC_REALTIME_PORT',
    description: 'self-hosted Pusher-protocol port',
    kind: port,
  },
  'realtime.tls': {
    env: 'CLINIC_REALTIME_TLS',
    description: 'use TLS for realtime (true|false)',
    kind: yesNo,
  },
  'realtime.auth_endpoint': {
    env: 'CLINIC_REALTIME_AUTH_ENDPOINT',
    description: 'private-channel authorization URL',
    kind: tokenUrl,
  },
  credential_store: {
    env: 'CLINIC_CREDENTIAL_STORE',
    description: 'where tokens are kept: keychain|file (set by login)',
    kind: oneOf(CREDENTIAL_STORES),
  },
};

/** One key as text: what `config` commands, doctor and the man page show. */
export interface KeySpec {
  key: SettingKey;
  env: string;
  description: string;
  /** What the CLI does when the key is set nowhere and has no default value. */
  unset?: string;
  /** Returns the normalised value or throws UsageError. */
  check(value: string): string;
}

const isSettingKey = (key: string): key is SettingKey => Object.hasOwn(DECLARED, key);

export const CONFIG_KEYS: readonly KeySpec[] = Object.keys(DECLARED)
  .filter(isSettingKey)
  .map((key) => {
    const { env, description, kind, unset } = DECLARED[key];
    // The last text this key took and what it was checked into (a check depends on the text alone): a run reads
    // base_url several times, and its check parses it as a URL twice.
    let last: { text: string; checked: string } | undefined;
    const check = (value: string) => {
      if (last?.text === value) return last.checked;
      const checked = kind.check(key, value);
      last = { text: value, checked };
      return checked;
    };
    return { key, env, description, unset, check };
  });

export const DEFAULTS = { scopes: 'openid *' } as const satisfies { readonly [K in SettingKey]?: string };

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
  return keySpec(key).check(value);
}

/** A checked text of `key` as its typed value. */
export function readSetting<K extends SettingKey>(key: K, checked: string): SettingValues[K] {
  return DECLARED[key].kind.read(key, checked);
}
