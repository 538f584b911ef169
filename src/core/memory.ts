// Long exports and imports promise constant memory. V8 collects lazily and lets its heap (and the buffers it holds)
// grow with the amount allocated, so a 100,000-record export would end at a higher peak than a 10,000-record one
// although it keeps no more alive. Two measures keep the peak flat: the young generation keeps its starting size
// (by default V8 doubles it whenever enough has survived its collections, which in a long run always happens: some
// 20 MiB more at the peak), and a full collection every few thousand records, a few milliseconds each time next to
// seconds of network time. node:v8 and node:vm load only here, when a long run starts (a bulk run, or a list's
// second page: a one-page list pays nothing).

let collect: (() => void) | null | undefined;

/** Sets V8 up for a long run (once): a young generation that does not grow, and a collector to call. */
function prepare(): void {
  if (collect !== undefined) return;
  try {
    const v8 = process.getBuiltinModule('node:v8') as typeof import('node:v8');
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    v8.setFlagsFromString('--expose-gc');
    const vm = process.getBuiltinModule('node:vm') as typeof import('node:vm');
    collect = vm.runInNewContext('gc') as () => void;
  } catch {
    collect = null; // not available: only the flat peak is lost
  }
}

export function collectGarbage(): void {
  prepare();
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
