// bin/clinic.js's signals: the first aborts the run (an AbortError naming the signal), which then has a while to end
// on its own, its exit code kept: a second after Ctrl-C, five after SIGTERM (a supervisor's stop, under docker's 10 s
// before SIGKILL). Past that, or at a second signal, it is ended with 130. A real process runs bin/clinic.js's own
// startCli with a stand-in for the bundle: a run that ends a set time after its abort.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, shellStatus } from '../../helpers/cli.js';

/** The stand-in run: says it started and which signal aborted it, and ends `afterAbortMs` later (never: -1), exit 0. */
const SCRIPT = `
const { startCli } = require(${JSON.stringify(BIN)});
const afterAbortMs = Number(process.env.AFTER_ABORT_MS);
startCli({
  version: () => '0.0.0',
  helpTexts: () => ({}),
  loadBundle: () => ({
    saveCache() {},
    main: (argv, { signal }) =>
      new Promise((resolve) => {
        const keepAlive = setInterval(() => {}, 1000);
        signal.addEventListener('abort', () => {
          process.stderr.write('aborted by ' + signal.reason.signal + ' (' + signal.reason.name + ')\\n');
          if (afterAbortMs >= 0) setTimeout(() => { clearInterval(keepAlive); resolve(0); }, afterAbortMs);
        });
        process.stderr.write('started\\n');
      }),
  }),
});
`;

/** Runs the stand-in, sends `signals` once it has started (the second, if any, 100 ms later), and its outcome. */
function stopped(signals: NodeJS.Signals[], afterAbortMs: number) {
  const child = spawn(process.execPath, ['-e', SCRIPT, '--', 'customers', 'list'], {
    env: { ...process.env, AFTER_ABORT_MS: String(afterAbortMs) },
  });
  let stderr = '';
  const started = Date.now();
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr === 'started\n') {
      child.kill(signals[0]);
      if (signals[1]) setTimeout(() => child.kill(signals[1]), 100);
    }
  });
  return new Promise<{ code: number | null; stderr: string; ms: number }>((resolve) =>
    child.on('exit', (code, signal) =>
      resolve({ code: shellStatus(code, signal), stderr, ms: Date.now() - started }),
    ),
  );
}

describe('a run stopped by a signal', () => {
  it.concurrent('SIGTERM: a run that ends 2 s later keeps its own exit code', async () => {
    const result = await stopped(['SIGTERM'], 2000);
    expect(result).toMatchObject({ code: 0, stderr: 'started\naborted by SIGTERM (AbortError)\n' });
  });

  it.concurrent('Ctrl-C: the same run is ended after a second, exit 130', async () => {
    const result = await stopped(['SIGINT'], 2000);
    expect(result).toMatchObject({ code: 130, stderr: 'started\naborted by SIGINT (AbortError)\n' });
  });

  it.concurrent('SIGTERM: a run that does not end is ended, exit 130', async () => {
    const result = await stopped(['SIGTERM'], -1);
    expect(result).toMatchObject({ code: 130, stderr: 'started\naborted by SIGTERM (AbortError)\n' });
    // Not at the first second, as Ctrl-C: the grace is SIGTERM's own (5 s; a generous lower bound).
    expect(result.ms).toBeGreaterThan(3000);
  });

  it.concurrent('a second signal ends it at once, exit 130', async () => {
    // Alone, the first would let this run end 2 s later with its own 0.
    const result = await stopped(['SIGTERM', 'SIGTERM'], 2000);
    expect(result.code).toBe(130);
  });
});
