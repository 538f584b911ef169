// The rate-limit budget as pure steps over a small state: what an answer's X-RateLimit-* headers teach, and whether
// the next request may go now or after how long. Kept in memory by one process (LocalPacer) or in a file shared by
// every process of a profile (SharedPacer), since the API counts requests per user, not per process.
import { MAX_RETRY_AFTER_S } from '../limits.js';

export interface BudgetState {
  /** Requests the server still allows in the current window, minus those sent since it said so. */
  remaining?: number;
  /** When the current window ends, in epoch ms (the server's time corrected for clock skew, plus a margin). */
  resetAtMs?: number;
  /** X-RateLimit-Limit: the budget of a fresh window. */
  limit?: number;
  /** When the current window was taken to start, while no answer has said when it ends (epoch ms). */
  openedAtMs?: number;
}

type Headers = Record<string, string | undefined>;

/**
 * The reset is given in whole seconds, rounded up, so it is never early by the server's clock: a small margin covers
 * the trip. The server's Date (whole seconds too) corrects our clock only when it is plainly off.
 */
const RESET_MARGIN_MS = 50;
const SKEW_WORTH_CORRECTING_MS = 1500;
/**
 * The API's window is a minute. A reset further ahead than a Retry-After the CLI would wait for (MAX_RETRY_AFTER_S) is
 * taken to be that far ahead: what the answer says is left still holds (no burst of requests into 429s), but one broken
 * or hostile answer parks every clinic process of the profile (the shared budget holds it) no longer than any 429
 * could. Where the server does count longer windows, the next request after it gets a 429 whose Retry-After ends the
 * run (exit 9), saying when to come back.
 */
const MAX_WINDOW_MS = MAX_RETRY_AFTER_S * 1000;
/** A Date header further off than this is a broken clock, not one to correct ours by. */
const MAX_SKEW_MS = 60 * 60 * 1000;
/** While a fresh window's budget is spent before any answer said when it ends: look again this soon. */
const UNKNOWN_RESET_POLL_MS = 200;
/**
 * The API's window. A budget spent in a window whose end no answer has told (the answers were lost, or said nothing
 * believable) is taken to be over this long after it opened: never a wait without end.
 */
const WINDOW_MS = 60 * 1000;

/** Takes a slot for one request: `wait` 0 means go (and the slot is counted), otherwise try again after `wait` ms. */
export function takeSlot(state: BudgetState, now: number): { state: BudgetState; wait: number } {
  let next = believable(state, now);
  const unknownEndOver =
    next.resetAtMs === undefined && next.openedAtMs !== undefined && now - next.openedAtMs >= WINDOW_MS;
  if ((next.resetAtMs !== undefined && now >= next.resetAtMs) || unknownEndOver) {
    // The window is over: a fresh one allows `limit` (a limit of none is not believed: unknown); when it ends is
    // learnt from its first answer.
    const fresh = next.limit !== undefined && next.limit > 0 ? next.limit : undefined;
    next = { limit: next.limit, remaining: fresh, openedAtMs: now };
  }
  if (next.remaining === undefined) return { state: next, wait: 0 };
  if (next.remaining > 0) return { state: { ...next, remaining: next.remaining - 1 }, wait: 0 };
  if (next.resetAtMs !== undefined) return { state: next, wait: Math.max(next.resetAtMs - now, 1) };
  // Spent, and no answer has said when the window ends: look again soon, and take it to be over a window after it
  // opened (or after now, for a state that never said).
  return { state: { ...next, openedAtMs: next.openedAtMs ?? now }, wait: UNKNOWN_RESET_POLL_MS };
}

/** Learns from an answer's headers; answers without them change nothing. Never raises the budget of a window. */
export function learn(stored: BudgetState, headers: Headers, now: number): BudgetState {
  const remaining = toNumber(headers['x-ratelimit-remaining']);
  const reset = toNumber(headers['x-ratelimit-reset']);
  const limit = toNumber(headers['x-ratelimit-limit']) ?? stored.limit;
  if (remaining === undefined || reset === undefined)
    return limit === stored.limit ? stored : { ...stored, limit };
  const state = believable(stored, now);
  const serverNow = headers.date ? Date.parse(headers.date) : Number.NaN;
  const measured = Number.isNaN(serverNow) ? 0 : now - serverNow;
  const skew =
    Math.abs(measured) > SKEW_WORTH_CORRECTING_MS && Math.abs(measured) <= MAX_SKEW_MS ? measured : 0;
  const said = reset * 1000 + skew + RESET_MARGIN_MS;
  if (!Number.isFinite(said)) return limit === state.limit ? state : { ...state, limit };
  const resetAtMs = Math.min(said, now + MAX_WINDOW_MS);
  const known = state.resetAtMs;
  // An answer from a window already over (it was slow to come) teaches nothing.
  if (known !== undefined && resetAtMs < known - 1500) return state;
  const sameWindow = known !== undefined && Math.abs(resetAtMs - known) <= 1500;
  const newer = known !== undefined && !sameWindow;
  return {
    limit,
    // Other processes' requests are in the server's count, ours sent since are in state.remaining: keep the lower
    // (unless the answer is from a newer window than the one state.remaining counts down).
    remaining: newer ? remaining : Math.min(remaining, state.remaining ?? remaining),
    resetAtMs: sameWindow ? Math.max(known, resetAtMs) : resetAtMs,
  };
}

/**
 * Two views of the budget (the shared file's and this process's) as one: of the same window, the lower count (each
 * has requests the other has not seen); of different windows, the newer.
 */
export function combine(a: BudgetState, b: BudgetState, now: number): BudgetState {
  const x = believable(a, now);
  const y = believable(b, now);
  if (x.resetAtMs === undefined || x.remaining === undefined) return { ...y, limit: y.limit ?? x.limit };
  if (y.resetAtMs === undefined || y.remaining === undefined) return { ...x, limit: x.limit ?? y.limit };
  if (Math.abs(x.resetAtMs - y.resetAtMs) > 1500) return x.resetAtMs > y.resetAtMs ? x : y;
  return {
    limit: x.limit ?? y.limit,
    remaining: Math.min(x.remaining, y.remaining),
    resetAtMs: Math.max(x.resetAtMs, y.resetAtMs),
  };
}

/** A state as read back (perhaps from a file another version wrote): numbers only, no window beyond belief. */
function believable(state: BudgetState, now: number): BudgetState {
  const number = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  const limit = number(state.limit);
  const remaining = number(state.remaining);
  const resetAtMs = number(state.resetAtMs);
  const openedAtMs = number(state.openedAtMs);
  if (resetAtMs !== undefined && resetAtMs - now > MAX_WINDOW_MS) return { limit };
  // Opened later than now by our clock: a state from a clock that moved, its window end unknown.
  const opened = openedAtMs !== undefined && openedAtMs <= now ? openedAtMs : undefined;
  return resetAtMs === undefined && opened !== undefined
    ? { limit, remaining, openedAtMs: opened }
    : { limit, remaining, resetAtMs };
}

/** Whether headers carry rate-limit information at all. */
export const hasRateHeaders = (headers: Headers): boolean =>
  headers['x-ratelimit-remaining'] !== undefined && headers['x-ratelimit-reset'] !== undefined;

function toNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Requests the budget still allows in the current window (a window over allows its fresh limit); undefined = unknown. */
export function roomIn(state: BudgetState, now: number): number | undefined {
  const known = believable(state, now);
  if (known.resetAtMs !== undefined && now >= known.resetAtMs) return known.limit;
  return known.remaining;
}
