// Durations in words for check lines: `40 s`, `3 min`, `5 h`, `15 d`.

export function humanDuration(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 120) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 120) return `${min} min`;
  const h = Math.round(min / 60);
  if (h < 48) return `${h} h`;
  return `${Math.round(h / 24)} d`;
}

/** `in 5 h` or `3 h ago`. */
export function relative(targetMs: number, nowMs: number): string {
  const words = humanDuration(targetMs - nowMs);
  return targetMs >= nowMs ? `in ${words}` : `${words} ago`;
}

/** A time as ISO 8601, or undefined when it is no readable time (a garbled header or claim: NaN, or past year 275760). */
export function isoTime(ms: number | undefined): string | undefined {
  if (ms === undefined || !Number.isFinite(ms)) return undefined;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
