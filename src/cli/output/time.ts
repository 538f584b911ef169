// Times for people: a date-time the server sent, shown as `YYYY-MM-DD HH:MM` in local time (UTC with --utc), and the
// zone said once. Only human views come here: JSON, NDJSON and CSV keep the server's exact strings.

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

/** How times read in one run's human views: local time or UTC, and which offsets were shown (to say the zone). */
export class HumanTimes {
  private made?: Intl.DateTimeFormat;
  private readonly offsets = new Set<string>();
  private said = false;

  /** `zone`: the local zone (TZ of the command's environment; default the system's). */
  constructor(
    readonly utc: boolean,
    private readonly zone?: string,
  ) {}

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

  private parts(ms: number): Record<string, string> {
    const parts: Record<string, string> = {};
    for (const { type, value } of this.format.formatToParts(ms)) parts[type] = value;
    return parts;
  }

  /** A server value as people read it, with its instant, when it is a date-time; undefined for anything else. */
  of(value: unknown): { text: string; ms: number } | undefined {
    const ms = typeof value === 'string' ? parseDateTime(value) : undefined;
    return ms === undefined ? undefined : { text: this.at(ms), ms };
  }

  /** `YYYY-MM-DD HH:MM` of an instant. */
  at(ms: number): string {
    return `${this.day(ms)} ${this.clock(ms)}`;
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
    // `GMT+01:00`, or `GMT` itself at offset zero.
    const offset = this.parts(ms).timeZoneName ?? 'GMT';
    this.offsets.add(offset === 'GMT' ? '+00:00' : offset.slice(3));
  }

  /** Which zone the times shown are in, the first time it is asked after one was shown; then undefined. */
  zoneNote(): string | undefined {
    if (this.said || this.offsets.size === 0) return undefined;
    this.said = true;
    const name = this.utc ? 'UTC' : this.format.resolvedOptions().timeZone;
    const offsets = [...this.offsets].sort().map((offset) => `UTC${offset}`);
    const plainUtc = offsets.length === 1 && offsets[0] === 'UTC+00:00' && /^(Etc\/)?(UTC|GMT)$/.test(name);
    return plainUtc ? 'times in UTC' : `times in ${name} (${offsets.join(', ')})`;
  }
}
