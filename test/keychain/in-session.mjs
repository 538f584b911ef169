// Runs inside `dbus-run-session` with an unlocked gnome-keyring: the real keychain store, then the CLI using it.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { KeychainStore } from '../../dist/core/auth/keychain-store.js';

const bin = fileURLToPath(new URL('../../bin/clinic.js', import.meta.url));
const report = {};
const store = new KeychainStore();
const profile = `keychain-test-${process.pid}`;

await store.set(profile, { kind: 'pat', access_token: 'first-secret' });
report.read = (await store.get(profile))?.access_token;
await store.set(profile, { kind: 'pat', access_token: 'second-secret' });
report.replaced = (await store.get(profile))?.access_token;
report.deleted = await store.delete(profile);
report.afterDelete = (await store.get(profile)) ?? null;

const clinic = (args, input) => {
  try {
    return { code: 0, stdout: execFileSync(process.execPath, [bin, ...args], { input, encoding: 'utf8' }) };
  } catch (error) {
    return { code: error.status, stdout: error.stdout, stderr: error.stderr };
  }
};
report.login = clinic(['--profile', 'sandbox', 'login', '--with-token'], process.env.TEST_TOKEN).code;
report.status = JSON.parse(clinic(['--profile', 'sandbox', 'auth', 'status', '-o', 'json']).stdout);
report.token = clinic(['--profile', 'sandbox', 'auth', 'token']).stdout.trim() === process.env.TEST_TOKEN;
report.logout = clinic(['--profile', 'sandbox', 'logout']).code;
report.afterLogout = (await store.get('sandbox')) ?? null;
process.stdout.write(JSON.stringify(report));
