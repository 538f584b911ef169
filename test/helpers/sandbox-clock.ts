// Sandbox clocks that tests move forward, so sandbox time passes (expiry, erasure steps) without a real sleep.
import type { SandboxClock } from '../../src/sandbox/index.js';

export interface MovableClock extends SandboxClock {
  advance(ms: number): void;
}

/** Stands still until told to move: for sandbox behaviour that follows its clock alone (erasure steps). */
export function manualClock(start = Date.now()): MovableClock {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

/**
 * The wall clock plus whatever the test has added: for token expiry, since the OpenID provider stamps tokens with
 * the wall clock while setting up (a browser sign-in) takes real time.
 */
export function aheadClock(): MovableClock {
  let ahead = 0;
  return {
    now: () => Date.now() + ahead,
    advance(ms: number) {
      ahead += ms;
    },
  };
}
