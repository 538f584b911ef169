// Two `clinic sandbox start` at once, as a user runs them: the second leaves the `sandbox` profile (and the sign-in
// made through it) with the first while that one runs, and says so; once the first has stopped, a start takes it.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, baseEnv, exitStatus, lines, runCli, tempConfigDir } from '../../helpers/cli.js';

interface Started {
  child: ChildProcess;
  ready: { base_url: string; token: string };
  /** Its stderr up to and with the `sandbox ready at …` line. */
  stderr: string;
  stop(): Promise<number | null>;
}

const running = new Set<ChildProcess>();

afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/** `clinic sandbox start ARGS` on port 0, once it has printed its ready line and said it is ready on stderr. */
async function startSandbox(configDir: string, args: string[] = []): Promise<Started> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--records', '3', ...args], {
    env: baseEnv(configDir) as NodeJS.ProcessEnv,
  });
  running.add(child);
  let stderr = '';
  const said = new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (stderr.includes('Ctrl-C to stop.\n')) resolve();
    });
    child.once('exit', () => reject(new Error(`sandbox start ended: ${stderr}`)));
  });
  const first = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout }).once('line', resolve),
  );
  await said;
  return {
    child,
    ready: JSON.parse(first),
    stderr,
    async stop() {
      const exited = exitStatus(child);
      child.kill('SIGTERM');
      const code = await exited;
      running.delete(child);
      return code;
    },
  };
}

async function profileBaseUrl(configDir: string, name = 'sandbox'): Promise<string | undefined> {
  const config = JSON.parse(await readFile(join(configDir, 'config.json'), 'utf8'));
  return config.profiles[name]?.base_url;
}

describe('clinic sandbox start beside a running sandbox', () => {
  it('leaves the profile with the running one, says so, and takes it once that one has stopped', async () => {
    const configDir = await tempConfigDir();
    const first = await startSandbox(configDir);
    expect(first.stderr).toContain(`profile 'sandbox' points at it`);
    const login = await runCli(
      configDir,
      ['--profile', 'sandbox', 'login', '--with-token', '--insecure-storage'],
      {
        input: first.ready.token,
      },
    );
    expect(login.code).toBe(0);

    const second = await startSandbox(configDir);
    expect(second.ready.base_url).not.toBe(first.ready.base_url);
    expect(await profileBaseUrl(configDir)).toBe(first.ready.base_url);
    expect(lines(second.stderr)).toEqual([
      `note: profile 'sandbox' left alone: it points at another sandbox, still running at ${first.ready.base_url}; ` +
        `to have a profile for this one, start it with --write-profile sandbox-2, or use ` +
        `CLINIC_BASE_URL=${second.ready.base_url} with the ready line's token as CLINIC_TOKEN`,
      `sandbox ready at ${second.ready.base_url}. Ctrl-C to stop.`,
    ]);
    // The sign-in made through the profile still works against the first sandbox.
    const account = await runCli(configDir, ['--profile', 'sandbox', 'account', '-o', 'json']);
    expect(account.code).toBe(0);

    // Named on the command line, a profile of a running sandbox is left alone just the same.
    const named = await startSandbox(configDir, ['--write-profile', 'sandbox']);
    expect(named.stderr).toContain(`note: profile 'sandbox' left alone`);
    expect(await profileBaseUrl(configDir)).toBe(first.ready.base_url);
    expect(await named.stop()).toBe(0);

    // The second's stop changes nothing; the first's frees the profile for the next start.
    expect(await second.stop()).toBe(0);
    expect(await profileBaseUrl(configDir)).toBe(first.ready.base_url);
    expect(await first.stop()).toBe(0);
    const third = await startSandbox(configDir);
    // The ready line first (the next step may follow it).
    expect(lines(third.stderr)[0]).toBe(
      `sandbox ready at ${third.ready.base_url}; profile 'sandbox' points at it. Ctrl-C to stop.`,
    );
    expect(await profileBaseUrl(configDir)).toBe(third.ready.base_url);
    // As before: the old sign-in stays stored, bound to the first sandbox, and is not sent to the new one.
    const refused = await runCli(configDir, ['--profile', 'sandbox', 'account', '-o', 'json']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(new URL(first.ready.base_url).origin);
    expect(await third.stop()).toBe(0);
  });

  it('writes a profile of its own when named apart, beside the running one', async () => {
    const configDir = await tempConfigDir();
    const first = await startSandbox(configDir);
    const second = await startSandbox(configDir, ['--write-profile', 'sandbox-2']);
    expect(second.stderr).toContain(`profile 'sandbox-2' points at it`);
    expect(await profileBaseUrl(configDir)).toBe(first.ready.base_url);
    expect(await profileBaseUrl(configDir, 'sandbox-2')).toBe(second.ready.base_url);
    expect(await second.stop()).toBe(0);
    expect(await first.stop()).toBe(0);
  });
});
