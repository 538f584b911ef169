// One signal for several (Ctrl-C, a deadline, a caller's own), without AbortSignal.any: the signals that makes are
// kept until a full collection, a cost on every request of a long export. Here the listeners go when released.
// A long-lived source (Ctrl-C's signal, a list's) gets one listener of ours, whatever the number of signals linked to
// it, not one added and removed per request: a removed listener of node's EventTarget still points at the listeners
// added after it, so once one of them had lived long enough to be promoted, the young generation's collections kept
// every later one alive, with the signal it linked (and promoted them in turn).

export interface LinkedSignal {
  signal: AbortSignal | undefined;
  /** Drops the listeners (the request is over); the signal stays as it is. */
  release(): void;
}

type Act = (source: AbortSignal) => void;

/** The links still listening to a source signal, and the one listener that tells them. */
interface Listening {
  acts: Set<Act>;
  listener: () => void;
}

const linkedTo = new WeakMap<AbortSignal, Listening>();

/**
 * Calls `act` (in the abort's own turn) when `source` aborts, until the returned function is called. The listener
 * goes with the last link: a signal made by AbortSignal.any is kept alive by its sources while it has one.
 */
function listen(source: AbortSignal, act: Act): () => void {
  let entry = linkedTo.get(source);
  if (!entry) {
    const acts = new Set<Act>();
    entry = { acts, listener: tellAll(source, acts) };
    linkedTo.set(source, entry);
    source.addEventListener('abort', entry.listener, { once: true });
  }
  entry.acts.add(act);
  return stopper(source, entry, act);
}

/** The one listener of `source`: made apart, so that it holds nothing of the call that made it (see cancel.ts). */
function tellAll(source: AbortSignal, acts: Set<Act>): () => void {
  return () => {
    linkedTo.delete(source);
    for (const act of [...acts]) act(source);
    acts.clear();
  };
}

function stopper(source: AbortSignal, { acts, listener }: Listening, act: Act): () => void {
  return () => {
    if (!acts.delete(act) || acts.size > 0) return;
    source.removeEventListener('abort', listener);
    if (linkedTo.get(source)?.acts === acts) linkedTo.delete(source);
  };
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
    listen(signal, (source) => {
      release();
      controller.abort(source.reason);
    }),
  );
  return { signal: controller.signal, release };
}
