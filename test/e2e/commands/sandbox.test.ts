// `clinic sandbox start` as a user runs it: the ready line, the written profile, and a clean stop.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv, lines, runCli, tempConfigDir, tempDir } from '../../helpers/cli.js';

const RECORDER = fileURLToPath(new URL('../../helpers/record-imports.mjs', import.meta.url));

/** `clinic sandbox start` with its loaded modules recorded: its ready line, and a stop that says what it loaded. */
async function recordedSandbox(): Promise<{
  ready: { base_url: string; token: string };
  stop(): Promise<string>;
}> {
  const file = join(await tempDir(), 'modules.txt');
  const child = spawn(
    process.execPath,
    ['--import', RECORDER, BIN, 'sandbox', 'start', '--no-write-profile'],
    {
      env: { ...baseEnv(await tempConfigDir()), RECORD_IMPORTS_FILE: file } as NodeJS.ProcessEnv,
    },
  );
  const ready = JSON.parse(
    await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve)),
  );
  return {
    ready,
    async stop() {
      const exited = new Promise((resolve) => child.on('close', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      return readFile(file, 'utf8');
    },
  };
}

describe('clinic sandbox start', () => {
  it('prints one ready line, writes the profile, serves it, and stops on SIGTERM', async () => {
    const configDir = await tempConfigDir();
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--records', '12'], {
      env: baseEnv(configDir) as NodeJS.ProcessEnv,
    });
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    const firstLine = await new Promise<string>((resolve) => {
      createInterface({ input: child.stdout }).once('line', resolve);
    });
    const ready = JSON.parse(firstLine);
    expect(ready).toMatchObject({ client_id: 'clinic-cli', realtime: { key: expect.any(String) } });
    expect(ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(ready.tenants.length).toBeGreaterThanOrEqual(2);
    expect(ready.token).toMatch(/^clinic_pat_/);

    const config = JSON.parse(await readFile(join(configDir, 'config.json'), 'utf8'));
    expect(config.profiles.sandbox).toMatchObject({
      base_url: ready.base_url,
      tenant: '1',
      client_id: 'clinic-cli',
    });
    expect(config.profiles.sandbox.realtime.port).toBe(String(new URL(ready.base_url).port));

    const list = await runCli(
      configDir,
      ['--profile', 'sandbox', 'customers', 'list', '--all', '-o', 'ndjson'],
      {
        env: { CLINIC_TOKEN: ready.token },
      },
    );
    expect(list.code).toBe(0);
    expect(lines(list.stdout)).toHaveLength(12);

    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toContain('sandbox stopped');
    // After the ready line, the next step for whoever started it.
    expect(lines(stderr)[1]).toBe(
      'next, in another terminal: clinic --profile sandbox login (a browser sign-in as a sandbox user), then e.g. ' +
        'clinic --profile sandbox customers list',
    );
    await expect(fetch(`${ready.base_url}/v1/account`)).rejects.toThrow();
  });

  it('takes the token lifetime flags', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'sandbox', 'start', '--access-token-ttl', '5', '--refresh-token-ttl', '9', '--no-write-profile'],
      { env: baseEnv(await tempConfigDir()) as NodeJS.ProcessEnv },
    );
    const first = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout }).once('line', resolve),
    );
    expect(JSON.parse(first).client_id).toBe('clinic-cli');
    const exited = new Promise((resolve) => child.on('close', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('loads the OpenID provider and makes its keys only when a request needs them', async () => {
    // oidc-provider and an RSA key pair were most of every start (about a second of CPU).
    const idle = await recordedSandbox();
    const account = await fetch(`${idle.ready.base_url}/v1/account`, {
      headers: { authorization: `Bearer ${idle.ready.token}` },
    });
    expect(account.status).toBe(200);
    const idleModules = await idle.stop();
    expect(idleModules).toContain('/dist/sandbox/index.js');
    expect(idleModules).not.toMatch(/oidc-provider|\/jose\//);

    const signingIn = await recordedSandbox();
    const origin = new URL(signingIn.ready.base_url).origin;
    const discovery = await fetch(`${origin}/.well-known/openid-configuration`);
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe(origin);
    const jwks = (await (await fetch(`${origin}/oauth/jwks`)).json()) as { keys: unknown[] };
    expect(jwks.keys).toHaveLength(1);
    expect(await signingIn.stop()).toMatch(/oidc-provider/);
  });

  it('says clearly when the port is taken', async () => {
    const { createServer } = await import('node:net');
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    try {
      const { code, stderr } = await runCli(await tempConfigDir(), [
        'sandbox',
        'start',
        '--port',
        String(port),
      ]);
      expect(code).toBe(1);
      expect(lines(stderr)).toEqual([
        `error: port ${port} on 127.0.0.1 is in use; choose another with --port (0 = any free port)`,
      ]);
    } finally {
      busy.close();
    }
  });

  it('refuses a bad --faults spec with exit 2', async () => {
    const { code, stderr } = await runCli(await tempConfigDir(), ['sandbox', 'start', '--faults', '5xx=2']);
    expect(code).toBe(2);
    expect(lines(stderr)).toHaveLength(1);
    expect(stderr).toMatch(/^error: --faults: /);
  });
});
