// Test client for the sandbox: one sandbox per test file, one fetch call with the admin token and tenant 1 unless
// told otherwise, and the API's error bodies as the tests expect them.
import { afterAll, beforeAll } from 'vitest';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect JSON bodies field by field
export type Json = any;

/**
 * Starts one sandbox before the file's tests and closes it after them: port 0 and no rate limit unless `options` say
 * otherwise. `ready` receives it (to keep it, and whatever the file reads from it once).
 */
export function sandboxForFile(
  ready: (sandbox: RunningSandbox) => void | Promise<void>,
  options: SandboxOptions = {},
): void {
  let running: RunningSandbox | undefined;
  beforeAll(async () => {
    running = await startSandbox({ port: 0, rateLimit: 0, ...options });
    await ready(running);
  });
  afterAll(async () => {
    await running?.close();
  });
}

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

/** Accept, Authorization and X-Tenant as `options` say: the admin's token and tenant 1 by default. */
export function callHeaders(
  sandbox: RunningSandbox,
  options: Pick<CallOptions, 'token' | 'tenant'> = {},
): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = options.token === undefined ? sandbox.info.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const tenant = options.tenant === undefined ? 1 : options.tenant;
  if (tenant !== null) headers['x-tenant'] = String(tenant);
  return headers;
}

/** The whole answer, its body parsed when it is JSON. */
export async function readResult(response: Response): Promise<CallResult> {
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

export async function call(
  sandbox: RunningSandbox,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const headers = callHeaders(sandbox, options);
  let body: string | undefined = options.rawBody;
  if (options.json !== undefined) body = JSON.stringify(options.json);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${sandbox.info.base_url}${path}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  return readResult(response);
}

/** Sends a multipart/form-data body (the voice upload) with the admin's token and tenant 1 unless told otherwise. */
export async function upload(
  sandbox: RunningSandbox,
  path: string,
  form: FormData,
  options: Pick<CallOptions, 'token' | 'tenant'> = {},
): Promise<CallResult> {
  const headers = callHeaders(sandbox, options);
  return readResult(await fetch(`${sandbox.info.base_url}${path}`, { method: 'POST', headers, body: form }));
}

/** Every customer of a tenant as the token's user sees them (one page of up to 100). */
export async function allCustomers(sandbox: RunningSandbox, options: CallOptions = {}): Promise<Json[]> {
  const result = await call(sandbox, '/v1/customers?per_page=100', options);
  if (result.status !== 200) throw new Error(`listing customers failed: ${result.status} ${result.text}`);
  return result.body.data;
}

// Written out here rather than taken from the sandbox, so a change to the shapes the API shows fails the tests.

/** The older endpoints' error body: the message twice. */
export const legacyErrorBody = (message: string) => ({ success: false, error: message, data: { message } });

/** The newer endpoints' error body, by code. */
export const codedErrorBody = (code: string, message: string) => ({
  success: false,
  error_code: code,
  message,
  errors: null,
  data: null,
});
