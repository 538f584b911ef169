// One signal for several (Ctrl-C, a deadline, a caller's own), without AbortSignal.any: the signals that makes are
// kept until a full collection, a cost on every request of a long export. Here the listeners go when released.
// A long-lived source (Ctrl-C's signal, a list's) has one listener whatever the number of signals linked to it
// (whenAborted, cancel.ts).
import { whenAborted } from './transport/cancel.js';

export interface LinkedSignal {
  signal: AbortSignal | undefined;
  /** Drops the listeners (the request is over); the signal stays as it is. */
  release(): void;
}

/** A signal that aborts when any of `signals` does; the one signal itself when only one is given. */
export function anySignal(signals: readonly (AbortSignal | undefined)[]): LinkedSignal {
  const given = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (given.length < 2) return { signal: given[0], release: () => undefined };
  const controller = new AbortController();
  const aborted = given.find((signal) => signal.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  let stops: (() => void)[] | undefined;
  const release = () => {
    if (!stops) return;
    for (const stop of stops) stop();
    stops = undefined;
  };
  stops = given.map((signal) =>
    whenAborted(signal, () => {
      release();
      controller.abort(signal.reason);
    }),
  );
  return { signal: controller.signal, release };
}
