// Test client for the sandbox: one fetch call with the admin token and tenant 1 unless told otherwise.
import type { RunningSandbox } from '../../src/sandbox/index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect JSON bodies field by field
export type Json = any;

export interface CallOptions {
  /** Defaults to the admin's token; null sends no Authorization header. */
  token?: string | null;
  /** Defaults to 1; null sends no X-Tenant header. */
  tenant?: string | number | null;
  method?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is, for malformed or oversize bodies. */
  rawBody?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  /** The parsed body when the answer is JSON, else undefined. */
  body: Json;
  text: string;
  bytes: Buffer;
}

export async function call(
  sandbox: RunningSandbox,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = options.token === undefined ? sandbox.info.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const tenant = options.tenant === undefined ? 1 : options.tenant;
  if (tenant !== null) headers['x-tenant'] = String(tenant);
  let body: string | undefined = options.rawBody;
  if (options.json !== undefined) body = JSON.stringify(options.json);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${sandbox.info.base_url}${path}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' || !isJson ? undefined : JSON.parse(text),
    text,
    bytes,
  };
}

/** Sends a multipart/form-data body (the voice upload) with the admin's token and tenant 1 unless told otherwise. */
export async function upload(
  sandbox: RunningSandbox,
  path: string,
  form: FormData,
  options: Pick<CallOptions, 'token' | 'tenant'> = {},
): Promise<CallResult> {
  const token = options.token === undefined ? sandbox.info.token : options.token;
  const tenant = options.tenant === undefined ? 1 : options.tenant;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (tenant !== null) headers['x-tenant'] = String(tenant);
  const response = await fetch(`${sandbox.info.base_url}${path}`, { method: 'POST', headers, body: form });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: JSON.parse(text),
    text,
    bytes: Buffer.from(text),
  };
}

/** Every customer of a tenant as the token's user sees them (one page of up to 100). */
export async function allCustomers(sandbox: RunningSandbox, options: CallOptions = {}): Promise<Json[]> {
  const result = await call(sandbox, '/v1/customers?per_page=100', options);
  if (result.status !== 200) throw new Error(`listing customers failed: ${result.status} ${result.text}`);
  return result.body.data;
}
