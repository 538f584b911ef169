// One time format for people: the server's date-times as local `YYYY-MM-DD HH:MM` (UTC with --utc), the zone said
// once; JSON and CSV keep the server's exact strings.
import { describe, expect, it } from 'vitest';
import { createListWriter, type OutputSpec, writeResource } from '../../../src/cli/output/render.js';
import { HumanTimes, parseDateTime } from '../../../src/cli/output/time.js';
import { stringSink } from '../../helpers/sink.js';

/** Berlin: UTC+01:00 in winter, +02:00 in summer. */
const berlin = () => new HumanTimes(false, 'Europe/Berlin');

describe('parseDateTime', () => {
  it('reads every form the API writes, a missing zone as UTC', () => {
    const noon = Date.UTC(2026, 0, 2, 12, 45);
    expect(parseDateTime('2026-01-02T12:45:00.000000Z')).toBe(noon);
    expect(parseDateTime('2026-01-02T12:45:00.001Z')).toBe(noon);
    expect(parseDateTime('2026-01-02T13:45:00+01:00')).toBe(noon);
    expect(parseDateTime('2026-01-02T12:45:00')).toBe(noon);
    expect(parseDateTime('2026-01-02 12:45')).toBe(noon);
  });

  it('leaves alone what is no date-time: a day, a date that does not exist, text', () => {
    for (const text of ['2026-01-02', '2026-02-30T00:00:00Z', '2026-01-02T25:00:00Z', 'soon', '12:45'])
      expect(parseDateTime(text), text).toBeUndefined();
  });
});

describe('HumanTimes', () => {
  it('local time as YYYY-MM-DD HH:MM, and the zone said once with the offsets shown', () => {
    const times = berlin();
    expect(times.of('2025-12-12T11:45:30.000000Z')?.text).toBe('2025-12-12 12:45');
    expect(times.zoneNote()).toBeUndefined(); // formatted is not shown
    times.shown(Date.UTC(2025, 11, 12));
    times.shown(Date.UTC(2026, 6, 1));
    expect(times.zoneNote()).toBe('times in Europe/Berlin (UTC+01:00, UTC+02:00)');
    expect(times.zoneNote()).toBeUndefined();
  });

  it('--utc: UTC, said as such', () => {
    const times = new HumanTimes(true);
    expect(times.of('2026-01-02T23:30:00Z')?.text).toBe('2026-01-02 23:30');
    times.shown(0);
    expect(times.zoneNote()).toBe('times in UTC');
  });

  it('makes its formatter only when a time is shown: ICU zone data is costly, and JSON or CSV shows none', () => {
    const real = Intl.DateTimeFormat;
    let made = 0;
    Intl.DateTimeFormat = new Proxy(real, {
      construct: (target, args: ConstructorParameters<typeof real>) => (made++, new target(...args)),
    });
    try {
      const times = berlin();
      expect(made).toBe(0);
      expect(times.of('2025-12-12T11:45:30Z')?.text).toBe('2025-12-12 12:45');
      expect(times.of('2025-12-12T11:46:30Z')?.text).toBe('2025-12-12 12:46');
      // Once to check the zone name, once to format.
      expect(made).toBe(2);
    } finally {
      Intl.DateTimeFormat = real;
    }
  });

  it('a value that is no date-time is not a time', () => {
    expect(new HumanTimes(false).of(20260102)).toBeUndefined();
    expect(new HumanTimes(false).of('2026-01-02')).toBeUndefined();
  });
});

describe('human views and data formats', () => {
  const record = { id: 1, created_at: '2026-01-02T08:05:09.000000Z', born: '1990-04-01' };
  const spec = (format: OutputSpec['format'], notes: string[]): OutputSpec => ({
    format,
    colour: false,
    width: 80,
    terminal: true,
    times: berlin(),
    note: (line) => notes.push(line),
  });

  it('a table and a record view show local time and say the zone once on a terminal', async () => {
    const notes: string[] = [];
    const one = spec('table', notes);
    const sink = stringSink();
    const writer = createListWriter(sink, one, [
      { header: 'ID', path: 'id' },
      { header: 'CREATED', path: 'created_at' },
      { header: 'BORN', path: 'born' },
    ]);
    await writer.write(record);
    await writer.end();
    await writeResource(sink, one, record);
    expect(sink.text).toContain('│ 2026-01-02 09:05 │ 1990-04-01 │');
    expect(sink.text).toContain('│ created_at │ 2026-01-02 09:05 │');
    expect(sink.text).not.toContain('08:05');
    expect(notes).toEqual(['times in Europe/Berlin (UTC+01:00)']);
  });

  it('JSON, NDJSON and CSV keep the server strings, and say no zone', async () => {
    for (const format of ['json', 'ndjson', 'csv'] as const) {
      const notes: string[] = [];
      const sink = stringSink();
      await writeResource(sink, spec(format, notes), record);
      expect(sink.text).toContain('2026-01-02T08:05:09.000000Z');
      expect(notes).toEqual([]);
    }
  });

  it('into a pipe a table says no zone', async () => {
    const notes: string[] = [];
    await writeResource(stringSink(), { ...spec('table', notes), terminal: false }, record);
    expect(notes).toEqual([]);
  });
});
