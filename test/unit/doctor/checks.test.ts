// The pure pieces of `clinic doctor`: skew, token claims, rate headers, line rendering, time limits, the keychain.
import { describe, expect, it } from 'vitest';
import { checkRecord, humanLine, summary } from '../../../src/commands/doctor/render.js';
import {
  KeychainUnavailableError,
  type CredentialStore,
  type StoreKind,
} from '../../../src/core/auth/credential-store.js';
import { Session } from '../../../src/core/auth/session.js';
import { systemClock } from '../../../src/core/clock.js';
import { Settings } from '../../../src/core/config/settings.js';
import type { Check, DoctorDeps, Findings } from '../../../src/core/doctor/check.js';
import { describeSources } from '../../../src/core/doctor/config-checks.js';
import { keychainCheck } from '../../../src/core/doctor/credential-checks.js';
import { rateLimitCheck } from '../../../src/core/doctor/api-checks.js';
import { humanDuration, relative } from '../../../src/core/doctor/duration.js';
import { readRateHeaders } from '../../../src/core/doctor/rate-headers.js';
import { runCheck, runDoctor } from '../../../src/core/doctor/run-checks.js';
import { classifySkew, describeSkew, measureSkew } from '../../../src/core/doctor/skew.js';
import { expiryState, jwtClaims } from '../../../src/core/doctor/token-facts.js';

describe('clock skew', () => {
  it('is ok up to 30 s, a warning up to 5 min, a failure beyond, either way', () => {
    expect(classifySkew(0)).toBe('ok');
    expect(classifySkew(30_000)).toBe('ok');
    expect(classifySkew(-30_001)).toBe('warn');
    expect(classifySkew(300_000)).toBe('warn');
    expect(classifySkew(300_001)).toBe('fail');
    expect(classifySkew(-3_600_000)).toBe('fail');
  });

  it('compares the middle of the exchange with the middle of the Date header’s second', () => {
    const server = Date.parse('2030-01-01T12:00:00Z');
    // Sent at server time + 0.4 s, answered at + 0.6 s on a clock 10 s fast.
    const skew = measureSkew(new Date(server).toUTCString(), server + 10_400, server + 10_600);
    expect(skew).toEqual({ skewMs: 10_000, uncertaintyMs: 600 });
    expect(describeSkew(skew!, humanDuration)).toBe('local clock 10 s ahead of the server');
    expect(describeSkew({ skewMs: -400, uncertaintyMs: 600 }, humanDuration)).toBe(
      'in step with the server (within 1 s)',
    );
    expect(describeSkew({ skewMs: -7_200_000, uncertaintyMs: 600 }, humanDuration)).toBe(
      'local clock 2 h behind the server',
    );
    expect(measureSkew('not a date', 0, 1)).toBeUndefined();
  });
});

describe('durations', () => {
  it('reads naturally at every scale', () => {
    expect(humanDuration(40_000)).toBe('40 s');
    expect(humanDuration(3 * 60_000)).toBe('3 min');
    expect(humanDuration(3 * 3600_000)).toBe('3 h');
    expect(humanDuration(15 * 86_400_000)).toBe('15 d');
    expect(relative(0, 3 * 3600_000)).toBe('3 h ago');
    expect(relative(5 * 3600_000, 0)).toBe('in 5 h');
  });
});

describe('token facts', () => {
  const jwt = (payload: object) =>
    ['e30', Buffer.from(JSON.stringify(payload)).toString('base64url'), 'sig'].join('.');

  it('reads the expiry and scopes of a JWT, and nothing of an opaque token', () => {
    expect(jwtClaims(jwt({ exp: 2_000_000_000, scope: 'openid customers:read' }))).toEqual({
      expiresAt: 2_000_000_000_000,
      scopes: ['openid', 'customers:read'],
    });
    expect(jwtClaims(jwt({ scopes: ['*'] }))).toEqual({ expiresAt: undefined, scopes: ['*'] });
    expect(jwtClaims('clinic_pat_abcdef')).toBeUndefined();
    expect(jwtClaims('a.!!!.c')).toBeUndefined();
  });

  it('classifies expiry: expired, expiring within a day, valid, unknown', () => {
    const now = 1_000_000_000_000;
    expect(expiryState(now - 1, now)).toBe('expired');
    expect(expiryState(now, now)).toBe('expired');
    expect(expiryState(now + 3600_000, now)).toBe('expiring');
    expect(expiryState(now + 3 * 86_400_000, now)).toBe('valid');
    expect(expiryState(undefined, now)).toBe('unknown');
  });
});

describe('rate headers', () => {
  it('reads limit, remaining and reset, leniently', () => {
    expect(
      readRateHeaders({
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '12',
        'x-ratelimit-reset': '2000000000',
      }),
    ).toEqual({ limit: 60, remaining: 12, resetAt: 2_000_000_000_000 });
    expect(readRateHeaders({ 'x-ratelimit-remaining': '3' })).toEqual({
      limit: undefined,
      remaining: 3,
      resetAt: undefined,
    });
    expect(readRateHeaders({ 'x-ratelimit-limit': '60' })).toBeUndefined();
    expect(readRateHeaders({ 'x-ratelimit-remaining': 'lots' })).toBeUndefined();
  });
});

const fakeDeps = (over: Partial<DoctorDeps> = {}): DoctorDeps =>
  ({
    env: {},
    clock: { now: () => 1_000_000_000_000, sleep: async () => {} },
    version: '0.0.0',
    globals: { requestTimeoutMs: 60_000 },
    ...over,
  }) as DoctorDeps;

describe('rate-limit check', () => {
  it('warns when little is left, says so when there are no headers, skips without answers', async () => {
    const deps = fakeDeps();
    const low: Findings = {
      answers: 2,
      rateHeaders: {
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '4',
        'x-ratelimit-reset': '1000000040',
      },
    };
    const warned = await rateLimitCheck.run(deps, low);
    expect(warned).toMatchObject({ status: 'warn', facts: { limit: 60, remaining: 4 } });
    expect(warned.detail).toBe('4 of 60 requests left; the window resets in 40 s: little headroom');
    expect(warned.fix).toContain('wait for the window to reset');
    const plenty = await rateLimitCheck.run(deps, {
      answers: 1,
      rateHeaders: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '50' },
    });
    expect(plenty).toMatchObject({ status: 'ok', detail: '50 of 60 requests left' });
    expect((await rateLimitCheck.run(deps, { answers: 1 })).detail).toMatch(/^no rate headers/);
    expect(await rateLimitCheck.run(deps, { answers: 0, unreachable: 'x cannot be reached' })).toMatchObject({
      status: 'skip',
      detail: 'skipped: x cannot be reached',
    });
  });
});

describe('keychain check', () => {
  const unavailable: CredentialStore = {
    kind: 'keychain',
    location: 'OS keychain (service clinic-cli)',
    get: () => Promise.reject(new KeychainUnavailableError('the keychain did not answer within 3s')),
    set: () => Promise.reject(new Error('unused')),
    delete: () => Promise.reject(new Error('unused')),
  };
  const setup = (store: StoreKind | undefined, env: Record<string, string> = {}) => {
    const profile = store ? { credential_store: store } : {};
    const settings = new Settings({ name: 'p', source: 'flag' }, { profiles: { p: profile } }, env);
    const session = new Session(settings, env, () => unavailable, systemClock);
    const deps = fakeDeps({ env, session: async () => session, store: () => unavailable });
    const found: Findings = { answers: 0, settings };
    return { deps, found };
  };

  it('fails when the profile keeps its tokens there, with the ways out', async () => {
    const { deps, found } = setup('keychain');
    const result = await keychainCheck.run(deps, found);
    expect(result.status).toBe('fail');
    expect(result.detail).toContain('did not answer within 3s');
    expect(result.fix).toMatch(/--insecure-storage.*CLINIC_TOKEN/);
    expect(found.keychainBroken).toContain('did not answer');
  });

  it('is only a fact, not needed, when the file store or CLINIC_TOKEN is in use', async () => {
    for (const [store, env, use] of [
      ['file', {}, 'this profile keeps its tokens in the file store'],
      ['keychain', { CLINIC_TOKEN: 't' }, 'CLINIC_TOKEN is used instead'],
    ] as const) {
      const { deps, found } = setup(store, env);
      const result = await keychainCheck.run(deps, found);
      expect(result.status, store).toBe('ok');
      expect(result.detail).toMatch(new RegExp(`^not available \\(.*\\); not needed: ${use}$`));
      expect(result.fix).toBeUndefined();
    }
  });
});

describe('running checks', () => {
  const check = (name: string, run: Check['run'], limitMs = 1000): Check => ({
    name,
    limitMs: () => limitMs,
    run,
  });

  it('turns a crash into that check’s failure, and a hang into one after its time limit', async () => {
    const deps = fakeDeps();
    const crashed = await runCheck(
      check('boom', async () => {
        throw new Error('it broke\nsecond line');
      }),
      deps,
      { answers: 0 },
    );
    expect(crashed).toMatchObject({ name: 'boom', status: 'fail', detail: 'it broke' });
    const started = Date.now();
    const hung = await runCheck(
      check('slow', () => new Promise(() => {}), 50),
      deps,
      { answers: 0 },
    );
    expect(hung).toMatchObject({ name: 'slow', status: 'fail', detail: 'no result within 50 ms' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('runs in order, reports each as it finishes, and is ok only without failures', async () => {
    const heard: string[] = [];
    const report = await runDoctor(
      fakeDeps(),
      {
        start: (name) => void heard.push(`start ${name}`),
        result: (r) => void heard.push(`${r.status} ${r.name}`),
      },
      [
        check('a', async () => ({ name: 'a', status: 'ok', detail: '' })),
        check('b', async () => ({ name: 'b', status: 'warn', detail: '', fix: 'f' })),
      ],
    );
    expect(heard).toEqual(['start a', 'ok a', 'start b', 'warn b']);
    expect(report.ok).toBe(true);
    expect(summary(report)).toBe('no check failed (1 warning)');
    const failing = await runDoctor(fakeDeps(), {}, [
      check('c', async () => ({ name: 'c', status: 'fail', detail: '' })),
    ]);
    expect(failing.ok).toBe(false);
    expect(summary(failing)).toBe('1 of 1 checks failed: c');
  });
});

describe('presentation', () => {
  it('one line: status, name, detail, and the fix for warn and fail only', () => {
    const style = { colour: false, home: '/home/ada' };
    expect(
      humanLine(
        { name: 'config-file', status: 'ok', detail: '/home/ada/.config/clinic/config.json (0600)' },
        style,
      ),
    ).toBe('ok    config-file   ~/.config/clinic/config.json (0600)');
    expect(
      humanLine(
        { name: 'token', status: 'fail', detail: 'expired 3 h ago', fix: 'run: clinic login' },
        style,
      ),
    ).toBe('fail  token         expired 3 h ago → run: clinic login');
    expect(humanLine({ name: 'x', status: 'ok', detail: 'd', fix: 'never shown' }, style)).not.toContain(
      'never',
    );
  });

  it("a long detail wraps inside the terminal's width, under the detail column (under the name when narrow)", () => {
    const result = {
      name: 'keychain',
      status: 'warn' as const,
      detail: 'not available (cannot store a test entry in the keychain: access was denied)',
      fix: 'use --insecure-storage or CLINIC_TOKEN when logging in on this machine',
    };
    expect(humanLine(result, { colour: true, width: 60 }).split('\n')).toEqual([
      '\u001b[33mwarn  \u001b[39mkeychain      not available (cannot store a test entry',
      '                    in the keychain: access was denied) →',
      '                    use --insecure-storage or CLINIC_TOKEN',
      '                    when logging in on this machine',
    ]);
    expect(humanLine(result, { colour: false, width: 36 }).split('\n')).toEqual([
      'warn  keychain',
      '  not available (cannot store a test',
      '  entry in the keychain: access was',
      '  denied) → use --insecure-storage',
      '  or CLINIC_TOKEN when logging in on',
      '  this machine',
    ]);
    // No width (a pipe): one line, as before.
    expect(humanLine(result, { colour: false })).not.toContain('\n');
  });

  it('server text reaches the terminal without control characters; colour only when allowed', () => {
    const hostile = {
      name: 'tenant-setup',
      status: 'fail' as const,
      detail: 'next step: \u001b[2Jpay\nnow',
      fix: 'x\u202e',
    };
    const line = humanLine(hostile, { colour: false });
    expect(line).toBe('fail  tenant-setup  next step: ?[2Jpay now → x?');
    expect(line).not.toContain('\u001b');
    expect(humanLine(hostile, { colour: true }).startsWith('\u001b[31mfail  \u001b[39mtenant-setup')).toBe(
      true,
    );
  });

  it('the JSON record keeps name, status, detail, fix first, then the facts', () => {
    expect(
      Object.keys(
        checkRecord({ name: 'n', status: 'warn', detail: 'd', fix: 'f', facts: { a: 1, name: 'no' } }),
      ),
    ).toEqual(['name', 'status', 'detail', 'fix', 'a']);
  });

  it('settings are grouped by where they come from', () => {
    expect(
      describeSources([
        { key: 'base_url', value: 'u', source: 'flag' },
        { key: 'tenant', value: '1', source: 'env' },
        { key: 'realtime.key', value: 'k', source: 'profile' },
        { key: 'realtime.host', value: 'h', source: 'profile' },
        { key: 'client_id', value: 'c', source: 'profile' },
        { key: 'scopes', value: 'openid *', source: 'default' },
        { key: 'output', value: undefined, source: undefined },
      ]),
    ).toBe(
      'base_url from flags; CLINIC_TENANT from the environment; client_id, realtime.* from the profile; scopes default',
    );
  });
});
