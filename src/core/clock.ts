// Time as a dependency, so retries and pacing can be tested with a fake clock.

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      if (ms <= 0) return resolve();
      const done = () => {
        signal?.removeEventListener('abort', abort);
        resolve();
      };
      // setTimeout fires at once for a delay beyond 2^31-1 ms (~24.8 days): longer sleeps go in steps.
      const step = Math.min(ms, MAX_TIMER_MS);
      const timer = setTimeout(
        () => (step < ms ? systemClock.sleep(ms - step, signal).then(done, reject) : done()),
        step,
      );
      const abort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
    }),
};
