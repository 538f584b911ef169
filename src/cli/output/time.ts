// Times for people: a date-time the server sent, shown as `YYYY-MM-DD HH:MM` in local time (UTC with --utc), and the
// zone said once. Only human views come here: JSON, NDJSON and CSV keep the server's exact strings.
import { sanitize } from './sanitize.js';

/** A date-time as the API writes it: date, `T` or a space, hours and minutes, maybe seconds, a fraction and a zone. */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Epoch milliseconds of a server date-time (no zone means UTC, the API's own), or undefined for anything else. */
export function parseDateTime(text: string): number | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day);
  wall.setUTCHours(hour, minute, second);
  const real = wall.getUTCMonth() === month - 1 && wall.getUTCDate() === day;
  if (!real || hour > 23 || minute > 59 || second > 59) return undefined;
  return wall.getTime() - offsetMinutes(match[7]) * 60_000;
}

function offsetMinutes(zone: string | undefined): number {
  if (zone === undefined || zone === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0);
  return zone.startsWith('-') ? -minutes : minutes;
}

/** A zone Intl knows (`Europe/Berlin`); else undefined: the system's own (a POSIX TZ such as `CET-1` included). */
function knownZone(zone: string | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone.replace(/^:/, '') });
    return zone.replace(/^:/, '');
  } catch {
    return undefined;
  }
}

/** The parts of an instant's wall-clock time that people read, and its offset from UTC (`+01:00`). */
interface WallClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  offset: string;
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `+01:00` of an offset east of UTC in minutes (`+00:53:28` where history had seconds). */
function offsetText(minutesEast: number): string {
  const seconds = Math.round(Math.abs(minutesEast) * 60);
  const sign = minutesEast < 0 ? '-' : '+';
  const rest = seconds % 60 === 0 ? '' : `:${two(seconds % 60)}`;
  return `${sign}${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}${rest}`;
}

/** An instant's wall clock by Date's own getters: UTC's, or the process's local zone (its TZ, else the system's). */
function dateWallClock(ms: number, utc: boolean): WallClock {
  const d = new Date(ms);
  const [year, month, day, hour, minute, second, milli] = utc
    ? [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), 0, 0]
    : [
        d.getFullYear(),
        d.getMonth(),
        d.getDate(),
        d.getHours(),
        d.getMinutes(),
        d.getSeconds(),
        d.getMilliseconds(),
      ];
  // The offset from the wall clock itself, to the second (getTimezoneOffset drops the seconds of older offsets);
  // set field by field, as Date.UTC would read a year below 100 as 19xx.
  const wall = new Date(0);
  wall.setUTCFullYear(year, month, day);
  wall.setUTCHours(hour, minute, second, milli);
  return {
    year: String(year).padStart(4, '0'),
    month: two(month + 1),
    day: two(day),
    hour: two(hour),
    minute: two(minute),
    offset: utc ? '+00:00' : offsetText((wall.getTime() - ms) / 60_000),
  };
}

/** The names the zone database gives UTC itself. */
const UTC_NAMES = /^(Etc\/)?(UTC|UCT|GMT|GMT[+-]?0|Universal|Zulu|Greenwich)$/;

/** A zone name as the IANA database writes them (`Europe/Berlin`, `Etc/GMT+5`, `UTC`). */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The name of the zone this process's Date is in, found without ICU's formatter: TZ when it names a zone of the
 * system's database, else the zone /etc/localtime links to (what ICU reads too). Undefined when neither says.
 */
function processZoneName(env: NodeJS.ProcessEnv): string | undefined {
  const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
  const zoneOf = (path: string) => {
    const at = path.lastIndexOf('/zoneinfo/');
    return at === -1 ? undefined : path.slice(at + '/zoneinfo/'.length);
  };
  try {
    if (env.TZ !== undefined) {
      const name = env.TZ.replace(/^:/, '').replace(/^(posix|right)\//, '');
      if (!ZONE_NAME.test(name)) return undefined; // no dots: nothing outside the database's folder
      // The system's database has it (Node's own may know zones it lacks: those take the long way).
      return fs.statSync(`/usr/share/zoneinfo/${name}`).isFile() ? name : undefined;
    }
    // posix/ and right/ hold the same zones (right/ counting leap seconds): named as the zone itself.
    const name = zoneOf(fs.readlinkSync('/etc/localtime'))?.replace(/^(posix|right)\//, '');
    return name !== undefined && ZONE_NAME.test(name) ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How times read in one run's human views: local time or UTC, and which offsets were shown (to say the zone).
 * UTC, and the zone this process runs in (the zone asked for is its own TZ: a command run from bin), are read with
 * Date's getters; any other zone with ICU's formatter, made on first use (some 11 ms of a run, for ICU's data).
 */
export class HumanTimes {
  private made?: Intl.DateTimeFormat;
  private readonly offsets = new Set<string>();
  private said = false;
  /** Whether Date's getters tell this zone's time: UTC, or the process's own zone. */
  private readonly byDate: boolean;

  /** `zone`: the local zone (TZ of the command's environment; default the system's). */
  constructor(
    readonly utc: boolean,
    private readonly zone?: string,
  ) {
    this.byDate = utc || zone === process.env.TZ;
  }

  /** Made on first use: ICU's zone data costs a start-up several milliseconds, and JSON or CSV never shows a time. */
  private get format(): Intl.DateTimeFormat {
    this.made ??= new Intl.DateTimeFormat('en-US', {
      timeZone: this.utc ? 'UTC' : knownZone(this.zone),
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    return this.made;
  }

  private parts(ms: number): WallClock {
    if (this.byDate) return dateWallClock(ms, this.utc);
    const parts: Record<string, string> = {};
    for (const { type, value } of this.format.formatToParts(ms)) parts[type] = value;
    // `GMT+01:00`, or `GMT` itself at offset zero.
    const offset = parts.timeZoneName ?? 'GMT';
    return {
      year: parts.year!.padStart(4, '0'),
      month: parts.month!,
      day: parts.day!,
      hour: parts.hour!,
      minute: parts.minute!,
      offset: offset === 'GMT' ? '+00:00' : offset.slice(3),
    };
  }

  /** A server value as people read it, with its instant, when it is a date-time; undefined for anything else. */
  of(value: unknown): { text: string; ms: number } | undefined {
    const ms = typeof value === 'string' ? parseDateTime(value) : undefined;
    return ms === undefined ? undefined : { text: this.at(ms), ms };
  }

  /** `YYYY-MM-DD HH:MM` of an instant. */
  at(ms: number): string {
    const { year, month, day, hour, minute } = this.parts(ms);
    return `${year}-${month}-${day} ${hour}:${minute}`;
  }

  /** `YYYY-MM-DD` of an instant. */
  day(ms: number): string {
    const { year, month, day } = this.parts(ms);
    return `${year}-${month}-${day}`;
  }

  /** `HH:MM` of an instant. */
  clock(ms: number): string {
    const { hour, minute } = this.parts(ms);
    return `${hour}:${minute}`;
  }

  /** Records that an instant was shown to a person, so that its zone is said. */
  shown(ms: number): void {
    this.offsets.add(this.parts(ms).offset);
  }

  /** Which zone the times shown are in, the first time it is asked after one was shown; then undefined. */
  zoneNote(): string | undefined {
    if (this.said || this.offsets.size === 0) return undefined;
    this.said = true;
    const offsets = [...this.offsets].sort().map((offset) => `UTC${offset}`);
    const tz = process.env.TZ;
    if (!this.utc && this.byDate && tz && processZoneName(process.env) === undefined && !knownZone(tz))
      // A POSIX rule (`<+0530>-5:30`) or a name no zone database here has: Node's Date reads it as UTC.
      return `times in ${offsets.join(', ')} (TZ '${sanitize(tz)}' names no zone Node knows)`;
    const name = this.utc
      ? 'UTC'
      : ((this.byDate ? processZoneName(process.env) : undefined) ??
        // An empty TZ is UTC to the C library, and nameless (Etc/Unknown) to ICU.
        (tz === '' && this.byDate ? 'UTC' : undefined) ??
        (this.format.resolvedOptions().timeZone as string | undefined));
    // A TZ that names no zone ICU knows leaves it nameless (its times are UTC's): the offsets alone say it.
    if (!name) return `times in ${offsets.join(', ')}`;
    const plainUtc = offsets.length === 1 && offsets[0] === 'UTC+00:00' && UTC_NAMES.test(name);
    return plainUtc ? 'times in UTC' : `times in ${name} (${offsets.join(', ')})`;
  }
}
