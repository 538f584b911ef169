// Date filters read as Laravel reads them: a bare date is that day at 00:00:00 UTC for either bound, offsets honoured.
import { describe, expect, it } from 'vitest';
import { parseCarbonDate } from '../../src/sandbox/api/carbon-date.js';
import { type RunningSandbox } from '../../src/sandbox/index.js';
import { call, type Json, sandboxForFile } from './client.js';

describe('parseCarbonDate', () => {
  // Expected instants are PHP 8.2's own (new DateTime($value) in UTC, and Laravel's `date` rule for the refusals).
  it.each([
    ['2026-01-31', '2026-01-31T00:00:00.000Z'],
    [' 2026-01-31 ', '2026-01-31T00:00:00.000Z'],
    ['2026-1-1', '2026-01-01T00:00:00.000Z'],
    ['2028-02-29', '2028-02-29T00:00:00.000Z'],
    ['0050-06-01', '0050-06-01T00:00:00.000Z'],
    ['2026-01-31T10:00:00Z', '2026-01-31T10:00:00.000Z'],
    ['2026-01-31T10:00:00.000000Z', '2026-01-31T10:00:00.000Z'],
    ['2026-01-31T10:00:00.1234567891Z', '2026-01-31T10:00:00.123Z'],
    ['2026-01-31 10:00', '2026-01-31T10:00:00.000Z'],
    ['2026-01-31t10:00:00z', '2026-01-31T10:00:00.000Z'],
    ['2026-01-31T1:00', '2026-01-31T01:00:00.000Z'],
    ['2026-01-31T10:00:00+02:00', '2026-01-31T08:00:00.000Z'],
    ['2026-01-31 10:00:00+02:00', '2026-01-31T08:00:00.000Z'],
    ['2026-01-31T10:00:00 +02:00', '2026-01-31T08:00:00.000Z'],
    ['2026-01-31T10:00:00+0200', '2026-01-31T08:00:00.000Z'],
    ['2026-01-31T10:00:00+02', '2026-01-31T08:00:00.000Z'],
    ['2026-01-31T10:00:00+2:00', '2026-01-31T08:00:00.000Z'],
    ['2026-01-31T10:00:00-05:30', '2026-01-31T15:30:00.000Z'],
    ['2026-01-31T10:00:00+02:59', '2026-01-31T07:01:00.000Z'],
    ['2026-01-31T10:00:00+24:00', '2026-01-30T10:00:00.000Z'],
    ['2026-01-31T10:00:00.5+01:00', '2026-01-31T09:00:00.500Z'],
    ['2026-01-31T24:00:00', '2026-02-01T00:00:00.000Z'],
    ['2026-01-31T10:00:60', '2026-01-31T10:01:00.000Z'],
  ])('%j is %s', (text, instant) => {
    expect(new Date(parseCarbonDate(text) as number).toISOString()).toBe(instant);
  });

  it.each([
    '2026-01-31T10:00:00 02:00', // an offset's '+' left unencoded in a query string: "double time" to PHP
    '2026-02-29',
    '2026-02-30',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '0000-01-01',
    '2026-01-31T10:00:00+25:00',
    '2026-01-31T10:00:00+02:60',
    'yesterday',
    '',
  ])('%j is refused, as the date rule refuses it', (text) => {
    expect(parseCarbonDate(text)).toBeUndefined();
  });
});

describe('list filters against the sandbox', () => {
  let sandbox: RunningSandbox;
  sandboxForFile(
    (running) => {
      sandbox = running;
    },
    { erasureStepSeconds: 0 },
  );

  const list = async (path: string, query: string): Promise<Json[]> => {
    const result = await call(sandbox, `${path}?per_page=100&${query}`);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return result.body.data;
  };
  const ids = (records: Json[]) => records.map((record) => record.id as number).sort((a, b) => a - b);
  const dayAfter = (day: string) => new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);

  // Each endpoint with its window parameters and the timestamp they filter on.
  const windows = [
    { path: '/v1/data-erasure-requests', from: 'created_at_from', to: 'created_at_to', at: 'created_at' },
    { path: '/v1/appointments', from: 'from', to: 'to', at: 'starts_at' },
  ];

  it.each(windows)(
    '$path: a bare $to is the start of that day, not its end',
    async ({ path, from, to, at }) => {
      const all = await list(path, '');
      const later = all.find((record) => !String(record[at]).includes('T00:00:00'));
      expect(later).toBeDefined();
      const day = String(later[at]).slice(0, 10);
      const upToDay = ids(await list(path, `${to}=${day}`));
      expect(upToDay).not.toContain(later.id);
      expect(upToDay).toEqual(ids(all.filter((record) => Date.parse(record[at]) <= Date.parse(day))));
      // The whole day is from=day&to=next day (the CLI's days are sent as full date-times, so never bare).
      const wholeDay = ids(await list(path, `${from}=${day}&${to}=${dayAfter(day)}`));
      expect(wholeDay).toContain(later.id);
      expect(ids(await list(path, `${from}=${day}&${to}=${day}`))).not.toContain(later.id);
    },
  );

  it.each(windows)('$path: an offset is honoured, to the millisecond', async ({ path, to, at }) => {
    const all = await list(path, '');
    const record = all.find((candidate) => !String(candidate[at]).includes('T00:00:00'));
    const ms = Date.parse(record[at]);
    // The same instant written two hours east of UTC, then one millisecond before it.
    const east = (t: number) => `${new Date(t + 7_200_000).toISOString().slice(0, 23)}+02:00`;
    expect(ids(await list(path, `${to}=${encodeURIComponent(east(ms))}`))).toContain(record.id);
    expect(ids(await list(path, `${to}=${encodeURIComponent(east(ms - 1))}`))).not.toContain(record.id);
  });

  it.each(windows)('$path: a window that ends before it starts is a 422 on its end', async (window) => {
    const result = await call(sandbox, `${window.path}?${window.from}=2026-02-01&${window.to}=2026-01-31`);
    expect(result.status).toBe(422);
    const [from, to] = [window.from, window.to].map((field) => field.replaceAll('_', ' '));
    expect(result.body.errors).toEqual({
      [window.to]: [`The ${to} field must be a date after or equal to ${from}.`],
    });
  });

  it.each(windows)(
    "$path: an unencoded '+' in an offset is a 422, as against the real API",
    async (window) => {
      const result = await call(sandbox, `${window.path}?${window.from}=2026-01-31T10:00:00+02:00`);
      expect(result.status).toBe(422);
      expect(result.body.errors).toEqual({
        [window.from]: [`The ${window.from.replaceAll('_', ' ')} field must be a valid date.`],
      });
    },
  );
});
