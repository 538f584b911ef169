// Long exports and imports promise constant memory. V8 collects lazily and lets its heap (and the buffers it holds)
// grow with the amount allocated, so a 100,000-record export would end at a higher peak than a 10,000-record one
// although it keeps no more alive. A full collection every few thousand records keeps the peak flat; it costs a few
// milliseconds each time, next to seconds of network time.
// node:v8 and node:vm load on the first collection, not with every command that imports this.

let collect: (() => void) | null | undefined;

export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      (process.getBuiltinModule('node:v8') as typeof import('node:v8')).setFlagsFromString('--expose-gc');
      const vm = process.getBuiltinModule('node:vm') as typeof import('node:vm');
      collect = vm.runInNewContext('gc') as () => void;
    } catch {
      collect = null; // not available: only the flat peak is lost
    }
  }
  collect?.();
}

/** Calls collectGarbage once every `every` calls. */
export function collectEvery(every: number): () => void {
  let calls = 0;
  return () => {
    if (++calls % every === 0) collectGarbage();
  };
}
