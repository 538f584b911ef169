// The keychain (keytar's interface from @napi-rs/keyring) against a real Secret Service: gnome-keyring in a private
// D-Bus session, started for this test.
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, requirePart, startWorld, type TestWorld, tempDir } from '../helpers/cli.js';

const SCRIPT = fileURLToPath(new URL('./in-session.mjs', import.meta.url));
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const available = requirePart(
  has('dbus-run-session') && has('gnome-keyring-daemon') && (await keyringBinaryLoads()),
  'real-keychain test: needs dbus-run-session and gnome-keyring-daemon (apt-get install dbus gnome-keyring) ' +
    "and the keyring's platform package (npm install without --omit=optional)",
);

async function keyringBinaryLoads(): Promise<boolean> {
  try {
    await import('@napi-rs/keyring/keytar.js');
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!available)('keychain through @napi-rs/keyring and gnome-keyring', () => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await startWorld({}, false);
  });
  afterAll(() => world.close());

  it('stores, reads, replaces and deletes; login keeps the token there, logout removes it', async () => {
    const home = await tempDir('clinic-keyring-');
    const env = {
      ...baseEnv(world.configDir),
      HOME: home,
      XDG_DATA_HOME: join(home, '.local/share'),
      TEST_TOKEN: world.sandbox.info.token,
      DISPLAY: '',
      // Locks the login collection (as a screen lock would) for doctor's last look.
      LOCK_COMMAND:
        'dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets ' +
        'org.freedesktop.Secret.Service.Lock array:objpath:/org/freedesktop/secrets/collection/login',
    };
    const script = `printf '%s' ci-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1 && exec "${process.execPath}" "${SCRIPT}"`;
    // Asynchronous: the sandbox answering the CLI runs in this process.
    const { stdout: output } = await promisify(execFile)('dbus-run-session', ['--', 'sh', '-c', script], {
      env: env as NodeJS.ProcessEnv,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const report = JSON.parse(output);
    expect(report).toMatchObject({
      read: 'first-secret',
      replaced: 'second-secret',
      deleted: true,
      afterDelete: null,
      login: 0,
      token: true,
      logout: 0,
      afterLogout: null,
      storeBeforeLogout: 'keychain',
      storeAfterLogout: '',
    });
    expect(report.status.storage).toContain('OS keychain');
    // doctor proved the keychain with an entry of its own, and left none behind.
    expect(report.doctor).toMatchObject({ status: 'ok', usable: true });
    expect(report.doctor.detail).toMatch(/^usable: /);
    expect(report.probesLeft).toBe(0);
    // Locked, it reads "nothing" as before, but doctor does not call it usable.
    expect(report.lockedDoctor).toMatchObject({ status: 'warn', usable: false });
    expect(report.lockedDoctor.detail).toMatch(
      /^not available \(cannot store a test entry in the keychain: /,
    );
    expect(report.lockedDoctor.detail).not.toMatch(/DBus|freedesktop|napi/);
    expect(report.lockedProbesLeft).toBe(0);
    expect(JSON.stringify(report.status)).not.toContain(world.sandbox.info.token);
  });
});
