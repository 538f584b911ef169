// Reads a date or date-time filter as Laravel does (the `date` rule, then Carbon::parse in the app's timezone, UTC).
// The ISO 8601 forms PHP's parser takes are accepted with PHP's meaning; what PHP refuses is refused.

// Date (month and day may be one digit), then an optional time ('T', 't' or a space; one-digit hour; seconds, any
// fraction) and, after a time, an optional offset: Z, +H, +HH, +HHMM, +H:MM or +HH:MM, a space before it allowed.
// An offset's '+' that an unencoded query string turned into a space is no offset to PHP ("double time"): refused.
const DATE_TIME =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?: ?([Zz]|[+-]\d{1,2}(?::\d{2})?|[+-]\d{4}))?)?$/;

/**
 * Epoch milliseconds of `text`, or undefined where Laravel's `date` rule fails (422). A bare date is that day at
 * 00:00:00 UTC, whichever bound it is; a date-time without an offset is UTC; an offset is honoured. As in PHP, hour 24
 * and second 60 roll over into the next day and minute.
 */
export function parseCarbonDate(text: string): number | undefined {
  const match = DATE_TIME.exec(text.trim());
  if (match === null) return undefined;
  const [, year = '', month = '', day = '', hour, minute, second, fraction, zone] = match;
  const dayMs = calendarDay(Number(year), Number(month), Number(day));
  if (dayMs === undefined) return undefined;
  if (hour === undefined) return dayMs;
  if (Number(hour) > 24 || Number(minute) > 59 || Number(second ?? 0) > 60) return undefined;
  // PHP keeps microseconds; milliseconds are the sandbox's own precision.
  const millis = Number((fraction ?? '').padEnd(3, '0').slice(0, 3));
  const wallMs = dayMs + ((Number(hour) * 60 + Number(minute)) * 60 + Number(second ?? 0)) * 1000 + millis;
  const offset = zone === undefined ? 0 : offsetMinutes(zone);
  return offset === undefined ? undefined : wallMs - offset * 60_000;
}

/** Midnight UTC of a real calendar day (PHP's checkdate: years 1 to 32767), else undefined. */
function calendarDay(year: number, month: number, day: number): number | undefined {
  if (year < 1 || month < 1 || month > 12 || day < 1) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads years 0-99 as 1900-1999
  return date.getUTCDate() === day ? date.getTime() : undefined;
}

/** Minutes east of UTC for Z, +H, +HH, +HHMM or +HH:MM; undefined past what PHP takes (24 hours, 59 minutes). */
function offsetMinutes(zone: string): number | undefined {
  if (zone === 'Z' || zone === 'z') return 0;
  const digits = zone.slice(1);
  const [hours, minutes] = digits.includes(':')
    ? digits.split(':').map(Number)
    : digits.length === 4
      ? [Number(digits.slice(0, 2)), Number(digits.slice(2))]
      : [Number(digits), 0];
  if (hours === undefined || minutes === undefined || hours > 24 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}
