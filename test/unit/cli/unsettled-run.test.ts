// bin/clinic.js when a run's promise never settles and nothing is left to wait for (a request a server left
// unanswered in a way no timer or socket notices): the process must not end in Node's default exit 0, as a success
// a script would trust, but in exit 1 with one line. A real process runs bin/clinic.js's startCli with a stand-in
// for the bundle.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from '../../helpers/cli.js';

/** The stand-in run: `never` never settles; `zero` resolves 0 after the event loop has had a turn. */
const script = (run: 'never' | 'zero') => `
const { startCli } = require(${JSON.stringify(BIN)});
startCli({
  version: () => '0.0.0',
  helpTexts: () => ({}),
  loadBundle: () => ({
    saveCache() {},
    main: () => ${run === 'never' ? 'new Promise(() => {})' : 'new Promise((resolve) => setImmediate(() => resolve(0)))'},
  }),
});
`;

const run = (which: 'never' | 'zero') =>
  spawnSync(process.execPath, ['-e', script(which), '--', 'customers', 'list'], { encoding: 'utf8' });

describe('a run that never settles', () => {
  it('ends in exit 1 with one error line, not in exit 0', () => {
    const result = run('never');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: the command stopped before it finished, with nothing left to wait for (a bug of clinic: run it again with --debug and report what it prints)\n',
    );
  });

  it('a run that settles keeps its own exit code, and says nothing more', () => {
    expect(run('zero')).toMatchObject({ status: 0, stdout: '', stderr: '' });
  });
});
