// The sandbox's own clock: the wall clock for users; tests pass one they move forward instead of sleeping.

export interface SandboxClock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
}

export const systemClock: SandboxClock = { now: () => Date.now() };
