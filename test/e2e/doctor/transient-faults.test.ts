// `clinic doctor` against a sandbox that fails on purpose (every request a 5xx, a reset, a 429, too slow): each line
// says the server failed for a moment and to run doctor again, none sends the user to their config or to sign in
// again, and the exit is 1. A profile that is really wrong (a bad token) still gets the precise advice.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lines } from '../../helpers/cli.js';
import { realtimeWorld, useWorld } from '../../helpers/world.js';

const world = useWorld(() => realtimeWorld());
afterEach(() => world.sandbox.setFaults(undefined));

/** Advice to change the setup: what no line of a server's passing failure may carry. */
const SETUP_ADVICE =
  /login|sign in|config (set|list)|base_url|auth_url|scope|tenants use|realtime\.(key|host|port|tls|auth_endpoint)|check the network/i;

/** The checks whose lines depend on the server; the others (config file, profile, keychain, token) are local. */
const SERVER_CHECKS = ['base-url', 'clock-skew', 'account', 'tenant-setup', 'rate-limit', 'realtime'];

/** `clinic doctor -o table` with `spec` injected: each check's line by name, stderr's lines and the exit code. */
async function doctorUnder(spec: string, args: string[] = []) {
  world.sandbox.setFaults(spec);
  const { code, stdout, stderr } = await world.clinic([...args, 'doctor', '-o', 'table']);
  const byName = new Map(lines(stdout).map((line) => [line.split(/ +/)[1]!, line]));
  return { code, byName, stderr: lines(stderr), stdout };
}

const PASSING = "(the server's own failure for now, not your setup)";
const NETWORK = '(the server or the network on the way failed for now, not your setup)';
const AGAIN = 'nothing to change: run doctor again in a moment';
const RETRY_AFTER = "nothing to change: wait 1 s (the server's Retry-After), then run doctor again";
const esc = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const AUTH = 'authorizing private-chat-log\\.1 \\(POST http://127\\.0\\.0\\.1:\\d+/api/broadcasting/auth\\)';

/** Every line of a server check is ok or says the server failed; none advises a change of setup. */
function expectNoSetupAdvice(byName: Map<string, string>) {
  for (const name of SERVER_CHECKS) {
    const line = byName.get(name)!;
    expect(line, name).toBeDefined();
    if (!line.startsWith('ok')) expect(line, name).not.toMatch(SETUP_ADVICE);
  }
  for (const name of ['config-file', 'profile', 'token']) expect(byName.get(name), name).toMatch(/^ok /);
}

describe('clinic doctor while the server fails for a moment', () => {
  it("every request answered 500 or 503: the server's failure, not the setup; exit 1", async () => {
    const { code, byName, stderr } = await doctorUnder('5xx=1');
    expect(code).toBe(1);
    expect(byName.get('base-url')).toMatch(
      new RegExp(
        `^warn +base-url +http://127\\.0\\.0\\.1:\\d+ answered HTTP 50[03] in \\d+ ms \\(.*\\): a failure that may pass ${esc(PASSING)} → (${esc(AGAIN)}|${esc(RETRY_AFTER)})$`,
      ),
    );
    expect(byName.get('clock-skew')).toMatch(/^ok +clock-skew +in step with the server/);
    expect(byName.get('account')).toMatch(
      new RegExp(
        `^fail +account +GET /v1/account failed for a moment: HTTP 50[03]( SERVER_ERROR)?: (Unexpected server fault|Service Unavailable)\\. ${esc(PASSING)} → (${esc(AGAIN)}|${esc(RETRY_AFTER)})$`,
      ),
    );
    for (const name of ['tenant-setup', 'rate-limit'])
      expect(byName.get(name)).toMatch(
        new RegExp(
          `^skip +${name} +skipped: GET /v1/account failed for a moment \\(HTTP 50[03][^)]*\\), so this cannot be told now$`,
        ),
      );
    expect(byName.get('realtime')).toMatch(
      new RegExp(
        `^fail +realtime +${AUTH} failed for a moment: HTTP 50[03].* ${esc(PASSING)} → nothing to change: `,
      ),
    );
    expectNoSetupAdvice(byName);
    expect(stderr).toEqual([
      "error: 2 of 10 checks failed for a moment, on the server's side: account, realtime (1 warning); run doctor again in a moment",
    ]);
  });

  it('every connection reset: the probe, the account and the authorization fail for a moment; exit 1', async () => {
    const { code, byName, stderr } = await doctorUnder('reset=1');
    expect(code).toBe(1);
    expect(byName.get('base-url')).toBe(
      `fail  base-url      GET /v1/account at ${new URL(world.sandbox.info.base_url).host} failed for a moment: connection reset ${NETWORK} → ${AGAIN}`,
    );
    expect(byName.get('clock-skew')).toMatch(
      /^skip +clock-skew +skipped: no server time to compare with: the probe of 127\.0\.0\.1:\d+ failed for a moment \(connection reset\)$/,
    );
    // The probe's reset does not mark the API unreachable: the account check asks for itself.
    expect(byName.get('account')).toBe(
      `fail  account       GET /v1/account failed for a moment: connection reset ${NETWORK} → ${AGAIN}`,
    );
    expect(byName.get('tenant-setup')).toBe(
      'skip  tenant-setup  skipped: GET /v1/account failed for a moment (connection reset), so this cannot be told now',
    );
    expect(byName.get('realtime')).toMatch(
      new RegExp(
        `^fail +realtime +${AUTH} failed for a moment: connection reset ${esc(NETWORK)} → ${esc(AGAIN)}$`,
      ),
    );
    expectNoSetupAdvice(byName);
    expect(stderr).toEqual([
      "error: 3 of 10 checks failed for a moment, on the server's side: base-url, account, realtime; run doctor again in a moment",
    ]);
  });

  it('every request answered 429: too many requests for now, the wait from Retry-After; exit 1', async () => {
    const { code, byName, stderr } = await doctorUnder('429=1');
    expect(code).toBe(1);
    const limited = '(too many requests for now, not a problem of your setup)';
    const wait = `${RETRY_AFTER}; every clinic process of this user shares the rate limit`;
    expect(byName.get('base-url')).toMatch(
      new RegExp(
        `^warn +base-url +http://127\\.0\\.0\\.1:\\d+ answered HTTP 429 in \\d+ ms .*: a failure that may pass ${esc(limited)} → ${esc(wait)}$`,
      ),
    );
    expect(byName.get('account')).toBe(
      `fail  account       GET /v1/account failed for a moment: HTTP 429: Too Many Attempts. ${limited} → ${wait}`,
    );
    expect(byName.get('realtime')).toMatch(
      new RegExp(
        `^fail +realtime +${AUTH} failed for a moment: HTTP 429: Too Many Attempts\\. ${esc(limited)} → ${esc(wait)}$`,
      ),
    );
    expect(byName.get('rate-limit')).toBe(
      'skip  rate-limit    skipped: GET /v1/account failed for a moment (HTTP 429: Too Many Attempts.), so this cannot be told now',
    );
    expectNoSetupAdvice(byName);
    expect(stderr[0]).toMatch(
      /^error: 2 of 10 checks failed for a moment, on the server's side: account, realtime/,
    );
  });

  it('every answer slower than --request-timeout: no answer in time, for a moment; exit 1', async () => {
    const started = Date.now();
    const { code, byName, stderr } = await doctorUnder('slow=1', ['--request-timeout', '1']);
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(byName.get('base-url')).toMatch(
      new RegExp(
        `^fail +base-url +GET /v1/account at 127\\.0\\.0\\.1:\\d+ failed for a moment: no answer from 127\\.0\\.0\\.1:\\d+ within 1s ${esc(NETWORK)} → ${esc(AGAIN)}$`,
      ),
    );
    expect(byName.get('clock-skew')).toMatch(/^skip +clock-skew +skipped: no server time to compare with: /);
    expect(byName.get('account')).toBe(
      `fail  account       GET /v1/account failed for a moment: no complete answer within 1s ${NETWORK} → ${AGAIN}`,
    );
    expect(byName.get('realtime')).toMatch(
      new RegExp(
        `^fail +realtime +${AUTH} failed for a moment: no answer within 1 s ${esc(NETWORK)} → ${esc(AGAIN)}$`,
      ),
    );
    expectNoSetupAdvice(byName);
    expect(stderr).toEqual([
      "error: 3 of 10 checks failed for a moment, on the server's side: base-url, account, realtime; run doctor again in a moment",
    ]);
  });

  it('-o json marks those checks transient, for scripts', async () => {
    world.sandbox.setFaults('5xx=1');
    const { code, stdout } = await world.clinic(['doctor', '-o', 'json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { ok: boolean; checks: { name: string; transient?: boolean }[] };
    expect(report.ok).toBe(false);
    expect(report.checks.filter((c) => c.transient).map((c) => c.name)).toEqual([
      'base-url',
      'account',
      'realtime',
    ]);
  });

  it('faults gone: every check passes again, exit 0', async () => {
    world.sandbox.setFaults(undefined);
    const { code, stdout } = await world.clinic(['doctor', '-o', 'table']);
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/for a moment|may pass/);
  });
});

describe('clinic doctor with a profile that is really wrong', () => {
  it('a bad stored token: the token was rejected, sign in again, as before; nothing said to pass', async () => {
    const file = join(world.configDir, 'credentials.json');
    const original = await readFile(file, 'utf8');
    const all = JSON.parse(original);
    all.sandbox = { ...all.sandbox, access_token: 'clinic_pat_revoked-long-ago' };
    await writeFile(file, JSON.stringify(all), { mode: 0o600 });
    try {
      const { code, stdout, stderr } = await world.clinic(['doctor', '-o', 'table']);
      expect(code).toBe(1);
      const byName = new Map(lines(stdout).map((line) => [line.split(/ +/)[1]!, line]));
      expect(byName.get('account')).toBe(
        'fail  account       the token was rejected (HTTP 401: Unauthenticated.) → run: clinic --profile sandbox login',
      );
      expect(byName.get('tenant-setup')).toBe('skip  tenant-setup  skipped: GET /v1/account failed');
      expect(byName.get('realtime')).toMatch(
        /^fail +realtime +connected to ws:\/\/127\.0\.0\.1:\d+\/app\/\S+, but authorizing private-chat-log\.1 failed: Unauthenticated\. → check realtime\.auth_endpoint/,
      );
      expect(stdout).not.toMatch(/for a moment|may pass|run doctor again/);
      expect(stdout).not.toContain('clinic_pat_revoked-long-ago');
      expect(lines(stderr)).toEqual(['error: 2 of 10 checks failed: account, realtime']);
    } finally {
      await writeFile(file, original, { mode: 0o600 });
    }
  });
});
