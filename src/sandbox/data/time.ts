// Timestamps for seeded data: a fixed epoch plus offsets, never the wall clock, so seeds replay byte for byte.

export const SEED_EPOCH_MS = Date.UTC(2026, 0, 1);

const MINUTE_MS = 60_000;

export function minutesAfterEpoch(minutes: number): number {
  return SEED_EPOCH_MS + minutes * MINUTE_MS;
}

/** Laravel's default serialization: microsecond precision, UTC, trailing Z. */
export function apiTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The realtime payload's form: seconds precision and an explicit UTC offset, e.g. 2026-01-03T10:15:00+00:00. */
export function offsetTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
