// doctor: the declaration; its code (and pusher-js, for the realtime check) loads only when it runs.
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  name: 'doctor',
  category: 'Tools',
  summary: 'check why this machine cannot talk to the API, one line per check with the fix',
  description:
    'Checks, in order: config-file (the file, its directory and credentials.json: present, 0600/0700, valid),\n' +
    'profile (which one and why, where each setting comes from), base-url (DNS, connect, TLS and latency of an\n' +
    "unauthenticated GET), clock-skew (the local clock against the server's Date: warn past 30 s, fail past\n" +
    '5 min), keychain (usable, and whether this profile needs it), token (where it is, expiry, scopes; an expired\n' +
    'one is refreshed when it can be), account (GET /v1/account), tenant-setup (a 428 gives the next step),\n' +
    'rate-limit (headroom from the X-RateLimit headers) and realtime (connects and authorizes\n' +
    'private-chat-log.{tenant}). A check that depends on a failed one is skipped with the reason; each has a\n' +
    'time limit (HTTP: --request-timeout, at most 10 s) and no retries. Tokens are never printed.\n' +
    'A failure that may pass (5xx, 429, 408, a reset, a timeout, an answer cut off) is said to be the\n' +
    "server's, not the setup's, with no advice to change it: run doctor again (after Retry-After when sent);\n" +
    'it fails its check (base-url, reached, only warns) and is marked "transient" in JSON.\n' +
    'On a terminal: a line per check (ok, warn, fail or skip, the detail, and for warn and fail the fix);\n' +
    'otherwise, or with -o json, one document {"ok":bool,"checks":[{"name","status","detail","fix",...}]};\n' +
    '-o csv: a row per check (name,status,detail,fix). --fields picks the fields of each check.\n' +
    'Exit 0 when no check fails (warnings allowed), 1 when any fails; Ctrl-C prints the checks done so far\n' +
    'and exits 130.',
  dryRun: 'read-only',
  examples: [
    'clinic doctor',
    'clinic --profile sandbox doctor -o json',
    'clinic doctor --json | jq -r \'.checks[] | select(.status == "fail") | .fix\'',
  ],
  noRaw: true,
  load: async () => (await import('./run.js')).run,
});
