// The HTTP shell around the API: request log, body handling, unknown routes and a clean close().
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { call, legacyErrorBody, sandboxForFile } from './client.js';

let sandbox: RunningSandbox;
sandboxForFile((running) => {
  sandbox = running;
});

describe('request log', () => {
  it('records every request in order with method, path, query and headers', async () => {
    const before = sandbox.requests.length;
    await call(sandbox, '/v1/customers?page=2&per_page=5', { tenant: 2 });
    await call(sandbox, '/v1/customers', { json: { first_name: 'Log', last_name: 'Me' } });
    expect(sandbox.requests.slice(before)).toEqual([
      {
        method: 'GET',
        path: '/api/v1/customers',
        query: 'page=2&per_page=5',
        headers: expect.objectContaining({ 'x-tenant': '2', authorization: `Bearer ${sandbox.info.token}` }),
      },
      expect.objectContaining({ method: 'POST', path: '/api/v1/customers', query: '' }),
    ]);
  });

  it('stays unchanged while nothing is sent', async () => {
    const before = sandbox.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sandbox.requests).toHaveLength(before);
  });
});

describe('bodies and routes', () => {
  it('answers 400 with the legacy envelope for invalid JSON', async () => {
    const result = await call(sandbox, '/v1/customers', { method: 'POST', rawBody: '{"first_name": ' });
    expect(result.status).toBe(400);
    expect(result.body).toEqual(legacyErrorBody('Invalid JSON payload.'));
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const result = await call(sandbox, '/v1/customers', {
      method: 'POST',
      rawBody: JSON.stringify({ first_name: 'x'.repeat(1024 * 1024), last_name: 'Big' }),
    });
    expect(result.status).toBe(413);
    expect(result.body).toEqual({ message: expect.any(String) });
  });

  it('answers 404 with the legacy envelope for an unknown /api route', async () => {
    for (const path of ['/v1/nothing-here', '/v2/customers', '/v1/customers/1/extra']) {
      const result = await call(sandbox, path);
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject({
        success: false,
        error: expect.stringContaining('could not be found'),
      });
      expect(result.body.data.message).toBe(result.body.error);
    }
  });

  it('answers 405 for a known path with the wrong method', async () => {
    const result = await call(sandbox, '/v1/customers/1', { method: 'DELETE' });
    expect(result.status).toBe(405);
    expect(result.headers.get('allow')).toBe('GET');
    expect(result.body.success).toBe(false);
  });

  it('answers JSON 404 outside /api', async () => {
    const response = await fetch(`${sandbox.info.auth_url}/nowhere`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ message: 'Not Found.' });
  });

  it('labels every answer as application/json', async () => {
    for (const options of [{}, { token: null }, { tenant: null }, { tenant: 3 }]) {
      const result = await call(sandbox, '/v1/customers', options);
      expect(result.headers.get('content-type')).toBe('application/json');
    }
  });
});

describe('close', () => {
  it('resolves with a keep-alive connection open, then refuses connections', async () => {
    const running = await startSandbox({ port: 0 });
    const socket = connect(running.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    expect((await call(running, '/v1/account')).status).toBe(200);
    await running.close();
    await expect(fetch(`${running.info.base_url}/v1/account`)).rejects.toThrow();
    const refused = await new Promise<string>((resolve) => {
      const probe = connect(running.port, '127.0.0.1');
      probe.once('connect', () => resolve('connected'));
      probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    expect(socket.destroyed || socket.readyState === 'closed').toBe(true);
  });

  it('cuts short a slow answer in flight', async () => {
    const running = await startSandbox({ port: 0, faults: 'slow=1' });
    const pending = call(running, '/v1/account').catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await running.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });
});
