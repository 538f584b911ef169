// One time format for people: the server's date-times as local `YYYY-MM-DD HH:MM` (UTC with --utc), the zone said
// once; JSON and CSV keep the server's exact strings.
import fc from 'fast-check';
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

describe("the process's own zone and UTC are read with Date's getters, as ICU's formatter reads them", () => {
  /** Zones with half- and quarter-hour offsets, a 30-minute DST, seconds in older offsets, and UTC itself. */
  const ZONES = [
    'Europe/Berlin',
    'America/New_York',
    'Asia/Kolkata',
    'Asia/Kathmandu',
    'Australia/Lord_Howe',
    'Pacific/Chatham',
    'America/St_Johns',
    'Africa/Monrovia',
    'UTC',
  ];
  /** Runs `body` with this process in `zone` (Node tells V8 when TZ changes), then puts TZ back. */
  function inZone(zone: string, body: () => void): void {
    const saved = process.env.TZ;
    process.env.TZ = zone;
    try {
      body();
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  }
  const instant = fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 0, 1) });

  it.each(ZONES)(
    '%s: the same wall clock and offsets at any instant since 1900, and no formatter made',
    (zone) => {
      inZone(zone, () => {
        const real = Intl.DateTimeFormat;
        let made = 0;
        fc.assert(
          fc.property(fc.array(instant, { minLength: 1, maxLength: 4 }), (instants) => {
            // The zone given as the process's TZ says it: Date. Any other spelling of it: ICU's formatter.
            const byDate = new HumanTimes(false, zone);
            const byIcu = new HumanTimes(false, `:${zone}`);
            const expected = instants.map((ms) => byIcu.at(ms));
            Intl.DateTimeFormat = new Proxy(real, {
              construct: (target, args: ConstructorParameters<typeof real>) => (made++, new target(...args)),
            });
            try {
              expect(instants.map((ms) => byDate.at(ms))).toEqual(expected);
              for (const ms of instants) byDate.shown(ms);
            } finally {
              Intl.DateTimeFormat = real;
            }
            expect(made).toBe(0);
            for (const ms of instants) byIcu.shown(ms);
            // The offsets said: the same (the name is TZ's own spelling: Asia/Kolkata, where ICU says Asia/Calcutta).
            const offsets = (note: string | undefined) => note?.replace(/^times in \S+ /, '');
            expect(offsets(byDate.zoneNote())).toBe(offsets(byIcu.zoneNote()));
            made = 0;
          }),
          { numRuns: 60 },
        );
      });
    },
  );

  it("--utc is read with Date's UTC getters, in any process zone", () => {
    inZone('Pacific/Chatham', () => {
      const times = new HumanTimes(true);
      expect(times.of('1999-12-31T23:59:30Z')?.text).toBe('1999-12-31 23:59');
      expect(times.of('0050-03-04T05:06:00Z')?.text).toBe('0050-03-04 05:06');
      times.shown(0);
      expect(times.zoneNote()).toBe('times in UTC');
    });
  });

  it("names the process's zone by its TZ when the system's zone database has it, else as ICU does", () => {
    inZone('Europe/Berlin', () => {
      const times = new HumanTimes(false, 'Europe/Berlin');
      times.shown(Date.UTC(2026, 0, 1));
      expect(times.zoneNote()).toBe('times in Europe/Berlin (UTC+01:00)');
    });
    inZone('posix/Europe/Berlin', () => {
      const times = new HumanTimes(false, 'posix/Europe/Berlin');
      times.shown(Date.UTC(2026, 0, 1));
      expect(times.zoneNote()).toBe('times in Europe/Berlin (UTC+01:00)');
    });
    // UTC by any of its names is said as UTC.
    for (const alias of ['UTC', 'Etc/UTC', 'Zulu', 'Universal', 'UCT', 'Greenwich', 'GMT0', 'Etc/GMT'])
      inZone(alias, () => {
        const times = new HumanTimes(false, alias);
        times.shown(Date.UTC(2026, 0, 1));
        expect(times.zoneNote(), alias).toBe('times in UTC');
      });
    // Not in the system's database, nor a zone at all, or a POSIX rule Node's Date cannot read: its times are
    // UTC's, and that is said.
    for (const tz of ['Nowhere/Atlantis', '<+0530>-5:30'])
      inZone(tz, () => {
        const times = new HumanTimes(false, tz);
        expect(times.of('2026-01-01T10:00:00Z')?.text).toBe('2026-01-01 10:00');
        times.shown(Date.UTC(2026, 0, 1));
        expect(times.zoneNote()).toBe(`times in UTC+00:00 (TZ '${tz}' names no zone Node knows)`);
      });
    // Set but empty: UTC to the C library (ICU would call it Etc/Unknown).
    inZone('', () => {
      const times = new HumanTimes(false, '');
      times.shown(Date.UTC(2026, 0, 1));
      expect(times.zoneNote()).toBe('times in UTC');
    });
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
