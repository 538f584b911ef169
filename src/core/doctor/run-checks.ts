// Runs every check in order, each within its time limit, handing each what the earlier ones found.
import { accountCheck, rateLimitCheck, tenantSetupCheck } from './api-checks.js';
import { type Check, type CheckResult, type DoctorDeps, fail, type Findings, reason } from './check.js';
import { configFileCheck, profileCheck } from './config-checks.js';
import { keychainCheck, tokenCheck } from './credential-checks.js';
import { baseUrlCheck, clockSkewCheck } from './reach-checks.js';
import { realtimeCheck } from './realtime-check.js';

/** The checks, in the order they run and are printed. */
export const CHECKS: readonly Check[] = [
  configFileCheck,
  profileCheck,
  baseUrlCheck,
  clockSkewCheck,
  keychainCheck,
  tokenCheck,
  accountCheck,
  tenantSetupCheck,
  rateLimitCheck,
  realtimeCheck,
];

export interface DoctorReport {
  ok: boolean;
  /** The checks that finished (all of them, unless interrupted). */
  checks: CheckResult[];
  /** Ctrl-C stopped the run: `checks` holds those done before it. */
  interrupted?: boolean;
}

/**
 * One check, never longer than its limit and never throwing: a crash or a timeout is that check's failure. On Ctrl-C
 * (deps.signal) it returns at once, with undefined: the check was cut short and has no result.
 */
export async function runCheck(
  check: Check,
  deps: DoctorDeps,
  found: Findings,
): Promise<CheckResult | undefined> {
  const limitMs = check.limitMs(deps);
  const { signal } = deps;
  if (signal?.aborted) return undefined;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(
      () =>
        resolve(
          fail(
            check.name,
            `no result within ${limitMs >= 1000 ? `${Math.round(limitMs / 1000)}s` : `${limitMs} ms`}`,
            'check the network; --debug shows each exchange',
          ),
        ),
      limitMs,
    );
  });
  try {
    const result = await Promise.race([
      check.run(deps, found).catch((error: unknown) => fail(check.name, reason(error), '--debug shows more')),
      timeout,
      aborted,
    ]);
    // A check that ended because of the interruption (its request was cancelled) did not really fail.
    return signal?.aborted ? undefined : result;
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

export interface DoctorHooks {
  /** A check is about to run (for a spinner). */
  start?(name: string): Promise<void> | void;
  /** A check has finished (a human sees lines appear one by one). */
  result?(result: CheckResult): Promise<void> | void;
}

/** Runs the checks in order and reports each to the hooks as it goes; on Ctrl-C, stops with those done so far. */
export async function runDoctor(
  deps: DoctorDeps,
  hooks: DoctorHooks = {},
  checks: readonly Check[] = CHECKS,
): Promise<DoctorReport> {
  const found: Findings = { answers: 0 };
  const results: CheckResult[] = [];
  for (const check of checks) {
    if (deps.signal?.aborted) break;
    await hooks.start?.(check.name);
    const result = await runCheck(check, deps, found);
    if (!result) break;
    results.push(result);
    await hooks.result?.(result);
  }
  if (deps.signal?.aborted) return { ok: false, checks: results, interrupted: true };
  return { ok: results.every((r) => r.status !== 'fail'), checks: results };
}
