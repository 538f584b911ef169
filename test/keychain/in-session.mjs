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
// doctor's probe writes, reads back and deletes an entry of its own: the keychain is usable, and no entry is left.
const doctor = () => JSON.parse(clinic(['--profile', 'sandbox', 'doctor', '-o', 'json']).stdout);
const keychainCheck = () => doctor().checks.find((check) => check.name === 'keychain');
const { default: keytar } = await import('@napi-rs/keyring/keytar.js');
const probes = async () =>
  (await keytar.findCredentials('clinic-cli')).filter((c) => c.account.startsWith('clinic-doctor-probe-'))
    .length;
report.doctor = keychainCheck();
report.probesLeft = await probes();
const storeSetting = () =>
  clinic(['--profile', 'sandbox', 'config', 'get', 'credential_store']).stdout?.trim() ?? '';
report.storeBeforeLogout = storeSetting();
report.logout = clinic(['--profile', 'sandbox', 'logout']).code;
report.afterLogout = (await store.get('sandbox')) ?? null;
// The keychain (the default) is forgotten with the sign-in: where none answers later, the profile is just signed out.
report.storeAfterLogout = storeSetting();
if (process.env.LOCK_COMMAND) {
  // Locked, the keychain still reads "nothing" but refuses (or never answers) a write: doctor must not say usable.
  execFileSync('sh', ['-c', process.env.LOCK_COMMAND]);
  report.lockedDoctor = keychainCheck();
  report.lockedProbesLeft = await probes().catch(() => 'unknown');
}
process.stdout.write(JSON.stringify(report));
