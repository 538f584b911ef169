// Time as a dependency, so retries and pacing can be tested with a fake clock.
import { setTimeout as delay } from 'node:timers/promises';

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: async (ms, signal) => {
    if (ms > 0) await delay(ms, undefined, { signal });
  },
};
