// How many requests a bulk run may have in flight now: the one question the run asks of the rate-limit budget.
// `--concurrency N` asks for N; automatic asks for up to AUTOMATIC_IN_FLIGHT. Either is capped by what the answers
// say is left of the window, and the first request goes alone (its answer tells the budget: no burst before it).
// Until an answer states a budget (X-RateLimit-*), automatic sends one at a time: a server that states none may not
// welcome a burst, and a run killed then leaves at most one line `unknown`.
// The pacer still times every request (core/http), so more in flight never means a request over the limit.

export interface InFlightLimit {
  /** Requests that may be in flight now: at least 1. */
  allowed(): number;
  /** Learns from an answer's headers (lower-case names; a stand-in answer may have none). */
  observe(headers: Record<string, string | undefined> | undefined): void;
}

export const AUTOMATIC_IN_FLIGHT = 8;

/** `requested`: --concurrency N, or undefined for automatic. */
export function inFlightLimit(requested: number | undefined): InFlightLimit {
  let remaining: number | undefined;
  let answered = false;
  return {
    allowed() {
      if (!answered) return 1;
      const wanted = requested ?? (remaining === undefined ? 1 : AUTOMATIC_IN_FLIGHT);
      return Math.max(1, Math.min(wanted, remaining ?? wanted));
    },
    observe(headers) {
      answered = true;
      const value = Number(headers?.['x-ratelimit-remaining'] ?? Number.NaN);
      if (Number.isFinite(value)) remaining = value;
    },
  };
}
