// What doctor makes of odd server answers and garbled values: accounts that are not accounts, dates that are no
// time, an HTTP status said twice, a config directory that cannot be read.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/errors.js';
import { describeTenant, describeUser, readAccount } from '../../../src/core/doctor/account-shape.js';
import { rateLimitCheck } from '../../../src/core/doctor/api-checks.js';
import { describeApiError } from '../../../src/core/doctor/passing.js';
import type { DoctorDeps } from '../../../src/core/doctor/check.js';
import { pathProblem } from '../../../src/core/doctor/path-problems.js';
import { isoTime } from '../../../src/core/doctor/duration.js';
import { jwtClaims } from '../../../src/core/doctor/token-facts.js';

describe('the account in GET /v1/account', () => {
  it('is not one without an object and an id', () => {
    for (const data of [[1, 2], null, 'Ada', 7, {}, { id: null }, { id: {} }, { id: '' }, { name: 'Ada' }])
      expect(readAccount(data), JSON.stringify(data)).toBeUndefined();
  });

  it('leaves out tenant entries that are not objects with an id, and names that are not text', () => {
    const account = readAccount({
      id: 1,
      name: null,
      email: 5,
      tenants: [
        null,
        5,
        'x',
        { id: {} },
        { id: 2, name: { toString: 1 }, is_active: 'yes' },
        { id: 3, name: 'Three' },
      ],
    });
    expect(account).toEqual({ id: 1, tenants: [{ id: 2 }, { id: 3, name: 'Three' }] });
    expect(describeUser(account!)).toBe('user 1 (no name or email)');
    expect(account!.tenants.map(describeTenant)).toEqual(['2', '3 Three']);
    expect(readAccount({ id: 1, tenants: 'x' })!.tenants).toEqual([]);
  });

  it('describes a user by what is known', () => {
    expect(describeUser({ id: 7, name: 'Ada', email: 'a@x', tenants: [] })).toBe('Ada <a@x> (user 7)');
    expect(describeUser({ id: 7, email: 'a@x', tenants: [] })).toBe('<a@x> (user 7)');
    expect(describeUser({ id: 7, name: 'Ada', tenants: [] })).toBe('Ada (user 7)');
  });
});

describe('times that are no time', () => {
  it('isoTime gives undefined instead of throwing "Invalid time value"', () => {
    expect(isoTime(0)).toBe('1970-01-01T00:00:00.000Z');
    for (const ms of [99_999_999_999_999_000, 1e23, Number.NaN, Number.POSITIVE_INFINITY, undefined])
      expect(isoTime(ms)).toBeUndefined();
  });

  it('a JWT whose exp is not a readable time says so', () => {
    const jwt = (payload: object) =>
      ['e30', Buffer.from(JSON.stringify(payload)).toString('base64url'), 'sig'].join('.');
    expect(jwtClaims(jwt({ exp: 1e20 }))).toEqual({ expiryUnreadable: true, scopes: undefined });
    expect(jwtClaims(jwt({ exp: 'tomorrow' }))).toEqual({ expiryUnreadable: true, scopes: undefined });
    expect(jwtClaims(jwt({ exp: 2_000_000_000 }))).toEqual({
      expiresAt: 2_000_000_000_000,
      scopes: undefined,
    });
  });

  it('a garbled X-RateLimit-Reset makes the rate-limit check warn', async () => {
    const deps = { clock: { now: () => 1_000_000_000_000 } } as DoctorDeps;
    const result = await rateLimitCheck.run(deps, {
      answers: 1,
      rateHeaders: {
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '30',
        'x-ratelimit-reset': '9'.repeat(40),
      },
    });
    expect(result).toMatchObject({
      status: 'warn',
      detail: `30 of 60 requests left; X-RateLimit-Reset (${'9'.repeat(24)}…) is no readable time`,
      facts: { limit: 60, remaining: 30, reset_at: null },
    });
  });
});

describe('HTTP failures in a check line', () => {
  it('name the status once', () => {
    expect(describeApiError(new ApiError({ status: 500, message: 'HTTP 500 server error' }))).toBe(
      'HTTP 500: server error',
    );
    expect(describeApiError(new ApiError({ status: 502, message: 'HTTP 502' }))).toBe('HTTP 502');
    expect(describeApiError(new ApiError({ status: 403, code: 'FORBIDDEN', message: 'no access' }))).toBe(
      'HTTP 403 FORBIDDEN: no access',
    );
    expect(describeApiError(new ApiError({ status: 500, message: 'HTTP 5000 rows failed' }))).toBe(
      'HTTP 500: HTTP 5000 rows failed',
    );
  });
});

describe('a config directory that cannot be looked at', () => {
  const errno = (code: string) => Object.assign(new Error(`${code}: lstat`), { code });

  it('is said in words, with the command to look and the fix', () => {
    expect(pathProblem(errno('EACCES'), '/c', '/c/config.json')).toEqual({
      detail: '/c cannot be read: permission denied (this user may not look inside it)',
      fix: 'run: ls -ld /c (its owner and mode); as its owner: chmod 700 /c',
      broken: 'the config directory cannot be read',
    });
    expect(pathProblem(errno('ENOTDIR'), '/c', '/c/config.json')).toMatchObject({
      detail: '/c is not a directory (a part of that path is a file)',
      broken: 'the config directory is not a directory',
    });
    expect(pathProblem(errno('EIO'), '/c', '/c/config.json').detail).toBe(
      'cannot look at /c/config.json: EIO',
    );
  });

  it('quotes a path in a command to paste as a shell takes it', () => {
    const dir = "/home/o'neil/my config";
    const quoted = `'/home/o'\\''neil/my config'`;
    expect(pathProblem(errno('EACCES'), dir, `${dir}/config.json`).fix).toBe(
      `run: ls -ld ${quoted} (its owner and mode); as its owner: chmod 700 ${quoted}`,
    );
    for (const code of ['ENOTDIR', 'ELOOP', 'EIO'])
      expect(pathProblem(errno(code), dir, `${dir}/config.json`).fix).toContain(`ls -ld ${quoted}`);
    expect(pathProblem(errno('ENOSPC'), dir, `${dir}/config.json`).detail).toBe(
      `cannot look at ${dir}/config.json: the disk is full (or the quota reached)`,
    );
  });
});
