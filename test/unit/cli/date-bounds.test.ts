// Date filters: a day means the whole day in the local time zone (TZ; UTC with --utc), sent as full UTC date-times.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDateBound } from '../../../src/cli/parse-args.js';
import { UsageError } from '../../../src/core/errors.js';
import { useInProcess } from '../../helpers/in-process.js';
import { queueReplies } from '../../helpers/mock-api.js';

/** Runs `body` with the process in time zone `zone` (Node reads TZ afresh when it is assigned). */
function inZone(zone: string) {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.TZ;
    process.env.TZ = zone;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });
}

describe('a day in Berlin (UTC+1 in winter, +2 in summer)', () => {
  inZone('Europe/Berlin');

  it('starts at its local midnight and ends at its last microsecond, in UTC', () => {
    expect(parseDateBound('2026-01-31', '--created-from', 'start')).toBe('2026-01-30T23:00:00Z');
    expect(parseDateBound('2026-01-31', '--created-to', 'end')).toBe('2026-01-31T22:59:59.999999Z');
  });

  it('follows summer time, and the short day when the clocks go forward', () => {
    expect(parseDateBound('2026-07-15', '--created-from', 'start')).toBe('2026-07-14T22:00:00Z');
    expect(parseDateBound('2026-03-29', '--created-from', 'start')).toBe('2026-03-28T23:00:00Z');
    expect(parseDateBound('2026-03-29', '--created-to', 'end')).toBe('2026-03-29T21:59:59.999999Z');
  });

  it('reads a date-time without an offset as local time, keeping its fraction', () => {
    expect(parseDateBound('2026-01-31T08:30', '--created-from', 'start')).toBe('2026-01-31T07:30:00Z');
    expect(parseDateBound('2026-01-31 08:30:15.25', '--created-to', 'end')).toBe('2026-01-31T07:30:15.25Z');
  });

  it('sends a date-time with an offset as typed', () => {
    expect(parseDateBound('2026-01-31T08:00:00Z', '--created-from', 'start')).toBe('2026-01-31T08:00:00Z');
    expect(parseDateBound('2026-01-31 08:00+05:30', '--created-to', 'end')).toBe('2026-01-31T08:00+05:30');
  });
});

describe('with --utc, wherever the machine is', () => {
  inZone('America/New_York');

  it('a day is the UTC day; a date-time without an offset is UTC', () => {
    expect(parseDateBound('2026-01-31', '--created-from', 'start', true)).toBe('2026-01-31T00:00:00Z');
    expect(parseDateBound('2026-01-31', '--created-to', 'end', true)).toBe('2026-01-31T23:59:59.999999Z');
    expect(parseDateBound('2026-01-31T08:30:15.5', '--created-from', 'start', true)).toBe(
      '2026-01-31T08:30:15.5Z',
    );
  });
});

for (const { title, zone, name, from, to } of [
  {
    title: 'a day in UTC',
    zone: 'UTC',
    name: 'is the day itself',
    from: '2026-01-31T00:00:00Z',
    to: '2026-01-31T23:59:59.999999Z',
  },
  {
    title: 'a day in New York',
    zone: 'America/New_York',
    name: 'runs from 05:00 UTC that day to 04:59:59.999999 the next',
    from: '2026-01-31T05:00:00Z',
    to: '2026-02-01T04:59:59.999999Z',
  },
])
  describe(title, () => {
    inZone(zone);

    it(name, () => {
      expect(parseDateBound('2026-01-31', '--created-from', 'start')).toBe(from);
      expect(parseDateBound('2026-01-31', '--created-to', 'end')).toBe(to);
    });
  });

describe('what is not a date', () => {
  it.each(['2026-02-30', 'yesterday', '2026-1-5', '2026-01-31T25:00', '2026-01-31T08:00+99:99', ''])(
    '%j is one usage line',
    (text) => {
      expect(() => parseDateBound(text, '--created-from', 'start')).toThrow(UsageError);
      expect(() => parseDateBound(text, '--created-from', 'start')).toThrow(
        /^--created-from must be an ISO 8601 date-time .* or a day such as 2026-01-31, got/,
      );
    },
  );
});

describe('erasure list sends the whole day', () => {
  const cli = useInProcess();
  inZone('Europe/Berlin');

  it('--created-from D --created-to D: from the local start to the local end of D, as UTC date-times', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/data-erasure-requests\?/, [
      { status: 200, body: { success: true, data: [], meta: { current_page: 1, last_page: 1, total: 0 } } },
    ]);
    const argv = [
      'erasure',
      'list',
      '--created-from',
      '2026-01-31',
      '--created-to',
      '2026-01-31',
      '-o',
      'json',
    ];
    const result = await cli.run(argv);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const query = new URL(`http://x${cli.seen[0]?.path}`).searchParams;
    expect(query.get('created_at_from')).toBe('2026-01-30T23:00:00Z');
    expect(query.get('created_at_to')).toBe('2026-01-31T22:59:59.999999Z');
  });

  it('--utc: a day and a date-time without an offset are UTC, as the times the run shows', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/data-erasure-requests\?/, [
      { status: 200, body: { success: true, data: [], meta: { current_page: 1, last_page: 1, total: 0 } } },
      { status: 200, body: { success: true, data: [], meta: { current_page: 1, last_page: 1, total: 0 } } },
    ]);
    const sent = async (...flags: string[]) => {
      const result = await cli.run(['erasure', 'list', '--utc', ...flags, '-o', 'json']);
      expect(result.code, result.stderr).toBe(0);
      return new URL(`http://x${cli.seen.at(-1)?.path}`).searchParams;
    };
    const day = await sent('--created-from', '2026-01-31', '--created-to', '2026-01-31');
    expect(day.get('created_at_from')).toBe('2026-01-31T00:00:00Z');
    expect(day.get('created_at_to')).toBe('2026-01-31T23:59:59.999999Z');
    const time = await sent('--created-from', '2026-01-31T08:30', '--created-to', '2026-01-31T10:00+01:00');
    expect(time.get('created_at_from')).toBe('2026-01-31T08:30:00Z');
    expect(time.get('created_at_to')).toBe('2026-01-31T10:00+01:00');
  });

  it('a time on a day before that whole day as --created-to is no inverted window', async () => {
    queueReplies(cli.transport, cli.seen, 'GET', /^\/api\/v1\/data-erasure-requests\?/, [
      { status: 200, body: { success: true, data: [], meta: { current_page: 1, last_page: 1, total: 0 } } },
    ]);
    const argv = ['erasure', 'list', '--created-from', '2026-01-31T05:00', '--created-to', '2026-01-31'];
    const result = await cli.run([...argv, '-o', 'json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('a later day before an earlier one is refused before anything is sent', async () => {
    const argv = ['erasure', 'list', '--created-from', '2026-02-01', '--created-to', '2026-01-31'];
    const result = await cli.run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --created-from .* is after --created-to/);
    expect(cli.seen).toEqual([]);
  });
});
