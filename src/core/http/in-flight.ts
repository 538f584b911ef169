// How many requests a run may have in flight (--concurrency): the one decision that long list exports and bulk runs
// share. The rate-limit budget has the last word: never more in flight than the requests it still allows in the
// window; when it is spent, one at a time, and the pacer decides when that one goes.

/** --concurrency when the user chose none: enough to overlap the server's time with ours, few enough to be polite. */
export const AUTO_CONCURRENCY = 4;

/** The number of requests a run keeps in flight: the user's --concurrency, or the automatic one. */
export function concurrencyOf(option: number | undefined): number {
  return option ?? AUTO_CONCURRENCY;
}

/**
 * How many more requests may start now, with `inFlight` already started (each has taken its slot of the budget), at
 * most `wanted` in flight, and `room` requests left in the window (undefined: the server has not said, or sends no
 * rate-limit headers). Never 0 when nothing is in flight: a run always moves, waiting in the pacer if it must.
 */
export function mayStart(wanted: number, inFlight: number, room: number | undefined): number {
  const byBudget = room === undefined ? Infinity : Math.max(0, room);
  const more = Math.max(0, Math.min(wanted - inFlight, byBudget));
  return inFlight === 0 ? Math.max(1, more) : more;
}
