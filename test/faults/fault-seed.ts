// The seed of a fault run: the sandbox draws every injected fault from it, so a failing run replays exactly with
// CLINIC_FAULT_SEED=<the seed it printed>.
export const FAULT_SEED = Number(process.env.CLINIC_FAULT_SEED ?? 20261122);

/** The REST faults of the runs: errors, rate limiting, resets and slow answers together. */
export const REST_FAULTS = '5xx=0.05,429=0.05,reset=0.02,slow=0.02';

export function replayHint(what: string): string {
  return `${what} (replay with CLINIC_FAULT_SEED=${FAULT_SEED} npm run test:faults)`;
}
