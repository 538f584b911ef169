// auth, login and logout: the declarations; each command's code loads only when it runs.
import { defineCommand } from '../../cli/command.js';
import { noun } from '../../cli/declare.js';
import { option } from '../../cli/options.js';

const status = defineCommand({
  name: 'status',
  summary: 'show the signed-in user, tenant, scopes, expiry and where the token is stored',
  dryRun: 'read-only',
  examples: ['clinic auth status', 'clinic --profile sandbox auth status -o json'],
  noRaw: true,
  load: async () => (await import('./status.js')).status,
});

const token = defineCommand({
  name: 'token',
  summary: 'print the current access token and nothing else',
  dryRun: 'read-only',
  examples: [
    'curl -H "Authorization: Bearer $(clinic auth token)" "$(clinic config get base_url)/v1/account"',
  ],
  noJq: 'auth token prints a token, not JSON',
  noRaw: true,
  load: async () => (await import('./status.js')).token,
});

const refresh = defineCommand({
  name: 'refresh',
  summary: 'get a new access token now with the refresh token',
  examples: ['clinic auth refresh', 'clinic --profile prod auth refresh && clinic auth status'],
  noJq: 'auth refresh prints no JSON',
  noRaw: true,
  load: async () => (await import('./status.js')).refresh,
});

export const LOGIN_OPTIONS = [
  option.flag('--with-token', 'read a personal access token from standard input'),
  option.flag('--insecure-storage', 'store the token in a plain 0600 file instead of the keychain'),
  option.text('--scopes <scopes>', 'space-separated scopes to ask for (default: config scopes, "openid *")'),
  option.int('--port <n>', 'fixed loopback port (for a registered redirect URI); default any free port', {
    min: 1,
    max: 65535,
  }),
  // The longest wait a timer holds (about 24 days): beyond it Node would end the wait at once.
  option.int('--timeout <seconds>', 'how long to wait for the browser (default 300)', {
    min: 1,
    max: 2_147_483,
  }),
  option.flag(
    '--no-browser',
    'print the sign-in address instead of opening a browser; accept a pasted address',
  ),
] as const;

export const login = defineCommand({
  name: 'login',
  category: 'Sign-in and settings',
  summary: 'sign in (browser, or a token from stdin) and store the token for the profile',
  description:
    'Sign in through the browser: OAuth 2.0 Authorization Code with PKCE (S256) and a loopback redirect to\n' +
    'http://127.0.0.1:{port}/callback. Needs auth_url (default: the origin of base_url; discovery through\n' +
    '/.well-known/openid-configuration when the server has it, else /oauth/authorize and /oauth/token) and\n' +
    'client_id. Over SSH use --no-browser and paste the address the browser ended on.\n' +
    '--with-token instead reads a personal access token from standard input (servers, cron jobs).\n' +
    'Tokens go to the OS keychain (service clinic-cli, account = profile). Without a usable keychain nothing is\n' +
    'stored: use --insecure-storage (or CLINIC_CREDENTIAL_STORE=file) for a 0600 file, or CLINIC_TOKEN. A profile\n' +
    'that chose the file keeps to it when it signs in again (its credential_store; config unset it to change).',
  options: LOGIN_OPTIONS,
  examples: [
    'clinic login',
    'clinic --profile sandbox login --scopes "openid customers:read"',
    'clinic login --no-browser          # over SSH: open the printed address elsewhere, paste where it ends',
    'echo "$CLINIC_PAT" | clinic login --with-token',
  ],
  noJq: 'login prints no JSON',
  noRaw: true,
  load: async () => (await import('./login.js')).run,
});

export const LOGOUT_OPTIONS = [
  option.flag('--all-profiles', 'log out of every profile'),
  option.flag('--end-session', "print the server's end-session address for the browser"),
] as const;

export const logout = defineCommand({
  name: 'logout',
  category: 'Sign-in and settings',
  summary: "revoke and delete the profile's stored tokens",
  description:
    'Revoke the tokens at the sign-in server when it offers revocation, then delete them locally.\n' +
    '--end-session also prints the address that ends the browser session at the server (RP-initiated logout).',
  options: LOGOUT_OPTIONS,
  examples: ['clinic logout', 'clinic logout --all-profiles', 'clinic logout --end-session'],
  noJq: 'logout prints no JSON',
  noRaw: true,
  load: async () => (await import('./logout.js')).run,
});

export default noun({
  name: 'auth',
  category: 'Sign-in and settings',
  summary: 'inspect and renew the sign-in: status, token, refresh',
  examples: ['clinic auth status', 'clinic auth token'],
  commands: [status, token, refresh],
});
