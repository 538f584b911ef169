// Long exports and imports promise constant memory. V8 collects lazily and lets its heap (and the buffers it holds)
// grow with the amount allocated, so a 100,000-record export would end at a higher peak than a 10,000-record one
// although it keeps no more alive. Two measures keep the peak flat: the young generation grows to 8 MiB at its next
// growth and no further, in a short run as in a long one (by default V8 doubles it whenever enough has survived its
// collections, which in a long run always happens, up to 32 MiB: some 20 MiB more at the peak; held at its 1 MiB
// start, a 100,000-record export collects it 335 times for 149 ms, at 4 MiB 143 times for 85-145 ms, at 8 MiB 71
// times for 89 ms, for 4-6 MiB more at the peak than at 4), and a full collection when the old generation has grown
// by a few MiB since the last one.
// A forced full collection costs tens of milliseconds on a busy machine; one every ten pages was a fifth of an
// export's time, one on growth is a handful in 100,000 records. node:v8 loads only here, when a long run starts (a
// bulk run, or a list's second page: a one-page list pays nothing); node:vm only for the first collection.
// A long run also lets V8 wait longer before it optimises a function (tierUpLater): a run of a thousand pages
// optimised (some of them twice, after a deoptimisation) dozens of functions that each ran little, a tenth of an
// export's CPU.
// A start-up's young generation is collected once it is full, not by V8's task at 80% of it, which ran just before
// the first request went (collectYoungWhenFull).
// V8 stamps a code cache with its flags: restoreV8Flags sets ours back to their defaults before bin writes one.

type V8 = typeof import('node:v8');
type HeapSpaceInfo = import('node:v8').HeapSpaceInfo;

type FlagSetter = Pick<V8, 'setFlagsFromString'>;

/** The flags set here, by name, and the flag that sets each back to V8's default. */
const DEFAULTS = {
  '--expose-gc': '--no-expose-gc',
  '--semi-space-growth-factor': '--semi-space-growth-factor=2',
} as const;

/**
 * How much a function runs (V8's interrupt budget, bytes of bytecode) before V8 looks at optimising it, in a long
 * run: nine times V8's default. 600,000 took a 100,000-record export from 1.03 to 0.92 s of CPU; 300,000 and
 * 1,200,000 did no better.
 */
const LONG_RUN_BUDGET = 600_000;

/**
 * V8's default budget, by V8 version: set back exactly at the run's end (a code cache made under another value is
 * refused). A V8 not listed is left as it is.
 */
const BUDGET_DEFAULTS: Readonly<Record<string, number>> = { '11.3': 67_584 };

/**
 * V8's default share of the young generation (percent) at which it asks for a collection in a task of its own, by V8
 * version: set back exactly at the run's end. A V8 not listed is left as it is.
 */
const TASK_TRIGGER_DEFAULTS: Readonly<Record<string, number>> = { '11.3': 80 };

const TASK_TRIGGER_FLAG = '--minor-gc-task-trigger';
/** What collectYoungWhenFull sets: a collection only once the young generation is full. */
const WHEN_FULL = `${TASK_TRIGGER_FLAG}=100`;

/**
 * The flags set so far, by name (a value set again replaces the last), each with the engine it was set on and the
 * flag that sets it back (restoreV8Flags).
 */
const flagsSet = new Map<string, { engine: FlagSetter; restore: string }>();

const nameOf = (flag: string) => flag.split('=')[0]!;

function setFlag(engine: FlagSetter, flag: string, restore: string): void {
  engine.setFlagsFromString(flag);
  flagsSet.set(nameOf(flag), { engine, restore });
}

let v8: V8 | null | undefined;
let collect: (() => void) | null | undefined;

/**
 * The young generation grows to this at its next growth (V8 grows it as its collections keep finding survivors), and
 * no further: the size a sequential client's reaches by itself in an export, where at 4 MiB clinic's collected it
 * twice as often.
 */
const YOUNG_CAP_BYTES = 8 * 2 ** 20;

/** Sets V8 up for a long run (once). */
function prepare(): V8 | null {
  if (v8 !== undefined) return v8;
  try {
    v8 = process.getBuiltinModule('node:v8') as V8;
    // A long run collects its young generation as V8 would (collectYoungWhenFull is for a start-up's first request).
    const whenFull = flagsSet.get(TASK_TRIGGER_FLAG);
    if (whenFull) {
      whenFull.engine.setFlagsFromString(whenFull.restore);
      flagsSet.delete(TASK_TRIGGER_FLAG);
    }
    // Node started with --expose-gc has gc() already: the flag is left as it was given.
    if (typeof globalThis.gc !== 'function') setFlag(v8, '--expose-gc', DEFAULTS['--expose-gc']);
    const execArgv = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(' ')];
    tierUpLater(v8, process.versions.v8, execArgv);
    capYoung = youngGenerationCap(v8, execArgv);
    capYoung(v8.getHeapSpaceStatistics());
  } catch {
    v8 = null; // not available: only the flat peak is lost
  }
  return v8;
}

export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      // A new context is the way to V8's gc() once --expose-gc is set late: a few milliseconds, paid once.
      const vm = prepare() && (process.getBuiltinModule('node:vm') as typeof import('node:vm'));
      if (typeof globalThis.gc === 'function') collect = globalThis.gc as () => void;
      else collect = vm ? (vm.runInNewContext('gc') as () => void) : null;
    } catch {
      collect = null;
    }
  }
  collect?.();
}

/**
 * Raises V8's interrupt budget to LONG_RUN_BUDGET, on a V8 whose default is known (BUDGET_DEFAULTS) and when Node was
 * not given a budget of its own (`execArgv`: its command line and NODE_OPTIONS).
 */
export function tierUpLater(engine: FlagSetter, v8Version: string, execArgv: readonly string[] = []): void {
  const [major, minor] = v8Version.split('.');
  const known = BUDGET_DEFAULTS[`${major}.${minor}`];
  if (known === undefined || execArgv.some((arg) => arg.startsWith('--interrupt-budget'))) return;
  setFlag(engine, `--interrupt-budget=${LONG_RUN_BUDGET}`, `--interrupt-budget=${known}`);
}

/**
 * Lets the young generation's next growth take it to YOUNG_CAP_BYTES in one step, and stops its growth once it is
 * there (at once on a V8 without such a space, or where one step would go past): a run of 10,000 records has the same
 * young generation as a run of 100,000, and so the same peak. Called with the heap's spaces until it returns true
 * (the caller looks before the next growth: a second one at this factor would go far past the cap). Left to V8 where
 * Node was given a young generation flag of its own (`execArgv`: its command line and NODE_OPTIONS).
 */
export function youngGenerationCap(
  engine: FlagSetter,
  execArgv: readonly string[] = [],
): (spaces: readonly HeapSpaceInfo[]) => boolean {
  if (execArgv.some((arg) => /semi[-_]space/.test(arg))) return () => true;
  let capped = false;
  let factor = 0;
  const grow = (by: number) =>
    setFlag(engine, `--semi-space-growth-factor=${by}`, DEFAULTS['--semi-space-growth-factor']);
  return (spaces) => {
    if (capped) return true;
    const young = spaces.find((space) => space.space_name === 'new_space');
    const reach = young && young.space_size > 0 ? Math.floor(YOUNG_CAP_BYTES / young.space_size) : 0;
    if (reach >= 2) {
      if (reach !== factor) grow((factor = reach));
      return false;
    }
    grow(1);
    return (capped = true);
  };
}

let capYoung: ReturnType<typeof youngGenerationCap> | undefined;

/**
 * For a long run: calls collectGarbage once every `every` calls, and looks at the young generation on each until it
 * is held (a microsecond a look).
 */
export function collectEvery(every: number): () => void {
  const engine = prepare();
  let calls = 0;
  let capped = false;
  return () => {
    calls++;
    if (engine && capYoung && !capped) capped = capYoung(engine.getHeapSpaceStatistics());
    if (calls % every === 0) collectGarbage();
  };
}

/**
 * The young generation collected once it is full, not by V8's task once it is 80% full. On a start-up that task runs
 * at the event loop's first turn, the request's connection, just before the request is written: 3-4 ms of a warm
 * `customers get`, which allocates most of the young generation's first MiB and so never fills it. V8 reads the share
 * when its task runs, so a task asked for before is let go. Called once node:http is loaded (node:v8 costs a run half
 * a millisecond then, four before), and not where Node was given the flag itself; a long run sets V8's share back
 * (prepare).
 */
export function collectYoungWhenFull(
  engine: () => FlagSetter = () => process.getBuiltinModule('node:v8') as V8,
  v8Version = process.versions.v8,
  execArgv: readonly string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(' ')],
): void {
  const [major, minor] = v8Version.split('.');
  const known = TASK_TRIGGER_DEFAULTS[`${major}.${minor}`];
  if (known === undefined || flagsSet.has(TASK_TRIGGER_FLAG)) return;
  // --minor-gc-task, --no-minor-gc-task, --minor-gc-task-trigger=N, with dashes or V8's underscores.
  if (execArgv.some((arg) => /minor[-_]gc[-_]task/.test(arg))) return;
  try {
    setFlag(engine(), WHEN_FULL, `${TASK_TRIGGER_FLAG}=${known}`);
  } catch {
    // node:v8 not available: V8 collects as it would.
  }
}

/**
 * How much the old generation may grow past what the last full collection left, before the next one. Medians of 9
 * alternating rounds of 100,000-record exports with pages side by side: at 2 MiB 6 full collections and 1.29 s
 * (1.19 s of CPU), at 3 MiB 1.19 s (1.11 s). At 4 MiB a CSV export's peak grew with its length: 1.15x that of
 * 10,000 records (7 rounds), against 1.09x at 2 MiB and 1.11x at 3 MiB.
 */
const OLD_GROWTH_BYTES = 3 * 2 ** 20;

/**
 * For a long run, called once per unit of work (a page): a full collection when the old generation holds
 * OLD_GROWTH_BYTES more than after the last one (objects promoted and since dead). Measuring costs microseconds.
 */
export function collectOnGrowth(): () => void {
  const engine = prepare();
  if (!engine) return () => undefined;
  const oldUsed = () => {
    const spaces = engine.getHeapSpaceStatistics();
    capYoung?.(spaces);
    for (const space of spaces) if (space.space_name === 'old_space') return space.space_used_size;
    return 0;
  };
  let floor = oldUsed();
  return () => {
    if (oldUsed() <= floor + OLD_GROWTH_BYTES) return;
    collectGarbage();
    floor = oldUsed();
  };
}

/**
 * Sets the V8 flags changed here back to their defaults, for the end of a run. A code cache carries a hash of the
 * flags it was made under and is refused by a V8 whose flags differ: written after a long run (bin writes the
 * command's cache on its way out, Node 22's compile cache at exit), it was refused by every next run, which compiled
 * the bundle again and wrote it again. What the flags did is done by then.
 */
export function restoreV8Flags(): void {
  for (const { engine, restore } of flagsSet.values()) engine.setFlagsFromString(restore);
  flagsSet.clear();
  // A later run in this process (the tests run several) sets them up again.
  v8 = undefined;
  collect = undefined;
  capYoung = undefined;
}
