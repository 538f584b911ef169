// The client a command gets from the context: User-Agent clinic/<version>, CLINIC_TOKEN, tenant from env.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/cli/context.js';
import { parseGlobals } from '../../../src/cli/globals.js';
import { UsageError } from '../../../src/core/errors.js';
import { fakeClock } from '../../helpers/fake-clock.js';
import { BASE_URL, newFakeTransport, queueReplies, type SeenRequest } from '../../helpers/mock-api.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'clinic-ctx-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function streams() {
  return { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() };
}

describe('context http()', () => {
  it('sends User-Agent clinic/<package version>, the CLINIC_TOKEN and the env tenant', async () => {
    const { version } = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8'));
    const env = {
      CLINIC_CONFIG_DIR: dir,
      CLINIC_BASE_URL: BASE_URL,
      CLINIC_TOKEN: 'env-token',
      CLINIC_TENANT: '3',
    };
    const transport = newFakeTransport();
    const seen: SeenRequest[] = [];
    queueReplies(transport, seen, 'GET', '/api/v1/customers', [{ status: 200, body: { data: [] } }]);
    const ctx = createContext(
      { streams: streams(), env, transport, clock: fakeClock() },
      parseGlobals({}, env),
    );
    const client = await ctx.http();
    await client.request({ method: 'GET', path: '/v1/customers' });
    expect(seen[0]?.headers['user-agent']).toBe(`clinic/${version}`);
    expect(seen[0]?.headers.authorization).toBe('Bearer env-token');
    expect(seen[0]?.headers['x-tenant']).toBe('3');
    transport.verify();
    await ctx.close();
  });

  it('--tenant beats CLINIC_TENANT', async () => {
    const env = { CLINIC_CONFIG_DIR: dir, CLINIC_BASE_URL: BASE_URL, CLINIC_TOKEN: 't', CLINIC_TENANT: '3' };
    const transport = newFakeTransport();
    const seen: SeenRequest[] = [];
    queueReplies(transport, seen, 'GET', '/api/v1/customers', [{ status: 200, body: { data: [] } }]);
    const ctx = createContext(
      { streams: streams(), env, transport, clock: fakeClock() },
      parseGlobals({ tenant: '9' }, env),
    );
    await (await ctx.http()).request({ method: 'GET', path: '/v1/customers' });
    expect(seen[0]?.headers['x-tenant']).toBe('9');
  });

  it('without any base_url it is a usage error before any request', async () => {
    const env = { CLINIC_CONFIG_DIR: dir, CLINIC_TOKEN: 't' };
    const ctx = createContext(
      { streams: streams(), env, transport: newFakeTransport() },
      parseGlobals({}, env),
    );
    await expect(ctx.http()).rejects.toBeInstanceOf(UsageError);
  });
});
