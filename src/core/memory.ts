// Long exports and imports promise constant memory. V8 collects lazily and lets its heap (and the buffers it holds)
// grow with the amount allocated, so a 100,000-record export would end at a higher peak than a 10,000-record one
// although it keeps no more alive. Two measures keep the peak flat: the young generation keeps its starting size
// (by default V8 doubles it whenever enough has survived its collections, which in a long run always happens: some
// 20 MiB more at the peak), and a full collection when the old generation has grown by a few MiB since the last one.
// A forced full collection costs tens of milliseconds on a busy machine; one every ten pages was a fifth of an
// export's time, one on growth is a handful in 100,000 records. node:v8 loads only here, when a long run starts (a
// bulk run, or a list's second page: a one-page list pays nothing); node:vm only for the first collection.

type V8 = typeof import('node:v8');

let v8: V8 | null | undefined;
let collect: (() => void) | null | undefined;

/** Sets V8 up for a long run (once): a young generation that does not grow. */
function prepare(): V8 | null {
  if (v8 !== undefined) return v8;
  try {
    v8 = process.getBuiltinModule('node:v8') as V8;
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    v8.setFlagsFromString('--expose-gc');
  } catch {
    v8 = null; // not available: only the flat peak is lost
  }
  return v8;
}

export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      // A new context is the way to V8's gc() once --expose-gc is set late: some 50 ms, paid once.
      const vm = prepare() && (process.getBuiltinModule('node:vm') as typeof import('node:vm'));
      collect = vm ? (vm.runInNewContext('gc') as () => void) : null;
    } catch {
      collect = null;
    }
  }
  collect?.();
}

/** For a long run: calls collectGarbage once every `every` calls. */
export function collectEvery(every: number): () => void {
  prepare();
  let calls = 0;
  return () => {
    if (++calls % every === 0) collectGarbage();
  };
}

/** How much the old generation may grow past what the last full collection left, before the next one. */
const OLD_GROWTH_BYTES = 2 * 2 ** 20;

/**
 * For a long run, called once per unit of work (a page): a full collection when the old generation holds
 * OLD_GROWTH_BYTES more than after the last one (objects promoted and since dead). Measuring costs microseconds.
 */
export function collectOnGrowth(): () => void {
  const engine = prepare();
  if (!engine) return () => undefined;
  const oldUsed = () => {
    for (const space of engine.getHeapSpaceStatistics())
      if (space.space_name === 'old_space') return space.space_used_size;
    return 0;
  };
  let floor = oldUsed();
  return () => {
    if (oldUsed() <= floor + OLD_GROWTH_BYTES) return;
    collectGarbage();
    floor = oldUsed();
  };
}
