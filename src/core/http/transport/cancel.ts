// What ends an exchange early (its deadline, Ctrl-C, a caller's own signal), shared by every exchange in flight: one
// timer for all their deadlines and one 'abort' listener per signal. A controller, a timer and a listener on each
// signal for every request cost a 1,000-page export a tenth of its CPU. Both are kept in WaitingLists, not Sets
// (waiting-list.ts says why).
import { WaitingList } from '../../waiting-list.js';

/**
 * How an exchange ends its request in flight: the transport hands `onEnd` the way to end it, and `end` ends it (at
 * once when the transport already has, or as soon as it does). The first reason wins.
 */
export class Cancel {
  reason: Error | undefined;
  private ender: ((error: Error) => void) | undefined;

  onEnd(ender: (error: Error) => void): void {
    if (this.reason) ender(this.reason);
    else this.ender = ender;
  }

  end(error: Error): void {
    if (this.reason) return;
    this.reason = error;
    this.ender?.(error);
  }
}

/** The error a signal's abort is told as (its reason when that is an Error). */
export const abortError = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error('aborted');

interface Deadline {
  at: number;
  expire: () => void;
}

/**
 * A monotonic clock in ms. Not performance.now(): the first touch of `performance` loads perf_hooks, a millisecond of
 * every command that asks anything.
 */
const monotonicMs = () => process.uptime() * 1000;

const deadlines = new WaitingList<Deadline>();
let timer: ReturnType<typeof setTimeout> | undefined;
let armedFor = Infinity;

/**
 * Calls `expire` once `ms` have passed, unless the returned function is called first. One timer serves every
 * deadline: armed for the earliest, it expires what is due and arms itself for the next. It is unref'd: a request in
 * flight keeps the process alive by its socket, and a timer left armed after the last one must not.
 */
export function onDeadline(ms: number, expire: () => void): () => void {
  const deadline = { at: monotonicMs() + ms, expire };
  const link = deadlines.add(deadline);
  if (deadline.at < armedFor) arm(deadline.at);
  return () => void deadlines.remove(link);
}

function arm(at: number): void {
  if (timer) clearTimeout(timer);
  armedFor = at;
  timer = setTimeout(sweep, Math.max(0, at - monotonicMs()));
  timer.unref();
}

function sweep(): void {
  timer = undefined;
  armedFor = Infinity;
  const now = monotonicMs();
  const due: Deadline[] = [];
  let next = Infinity;
  for (const link of deadlines.links()) {
    const deadline = link.value!;
    if (deadline.at <= now) {
      deadlines.remove(link);
      due.push(deadline);
    } else if (deadline.at < next) next = deadline.at;
  }
  // Armed for the next before any is told, and each told on its own turn: what one does (or throws) cannot keep the
  // others waiting.
  if (next !== Infinity) arm(next);
  for (const deadline of due) queueMicrotask(deadline.expire);
}

interface Listening {
  acts: WaitingList<() => void>;
  listener: () => void;
}

const listening = new WeakMap<AbortSignal, Listening>();

/**
 * Calls `act` when `signal` aborts (on a turn of its own: one that throws stops no other), unless the returned function
 * is called first.
 */
export function onAbort(signal: AbortSignal, act: () => void): () => void {
  if (signal.aborted) {
    // Its 'abort' has been and gone: told at once (on the next turn), unless stopped first.
    let stopped = false;
    queueMicrotask(() => stopped || act());
    return () => void (stopped = true);
  }
  return whenAborted(signal, () => queueMicrotask(act));
}

/**
 * Calls `act` in the abort's own turn when `signal` (not aborted yet) aborts, unless the returned function is called
 * first. A signal has one listener while anything waits on it, whatever their number (Ctrl-C's covers every request of
 * a run, and every signal linked to it: any-signal.ts), and none once the last is over: a signal made by
 * AbortSignal.any is kept alive by its sources for as long as it has a listener. Not one added and removed per
 * request: node's EventTarget leaves a removed listener pointing at the next one, so once one of them had lived long
 * enough to be promoted, the young generation's collections kept every later one alive, and promoted them in turn.
 */
export function whenAborted(signal: AbortSignal, act: () => void): () => void {
  let entry = listening.get(signal);
  if (!entry) {
    const acts = new WaitingList<() => void>();
    const listener = tellAll(signal, acts);
    listening.set(signal, (entry = { acts, listener }));
    signal.addEventListener('abort', listener, { once: true });
  }
  const { acts, listener } = entry;
  const link = acts.add(act);
  return () => {
    if (!acts.remove(link) || acts.size > 0) return;
    signal.removeEventListener('abort', listener);
    if (listening.get(signal)?.acts === acts) listening.delete(signal);
  };
}

/**
 * The one listener of `signal`: tells every act in `acts`. Made out here, where it sees nothing but these two: made
 * inside the function that adds an act, it held on to that call's `act` (the scope it shares with the function
 * returned), and through it the request it ended, its answer and its text, for as long as the signal kept a request
 * in flight: a page of every few in a long export lived to be promoted.
 */
function tellAll(signal: AbortSignal, acts: WaitingList<() => void>): () => void {
  return () => {
    listening.delete(signal);
    const told = acts.values();
    acts.clear();
    for (const act of told) act();
  };
}
