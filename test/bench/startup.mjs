// Start-up: --version, --help, a noun's and a verb's help, and a real command, against `node -e 0`.
import { alternate, BIN, cleanEnv, sandboxProcess, signIn, spread, tempDir } from './common.mjs';

export async function startupBench(runs) {
  const home = tempDir('clinic-bench-home-');
  // Rate limiting on, as the API has it (every answer carries X-RateLimit-* headers), at a limit no run reaches.
  const sandbox = await sandboxProcess(['--rate-limit', '1000000'], cleanEnv(home));
  try {
    const env = await signIn(home, sandbox.ready);
    const { ratios, times, perRound } = alternate(
      {
        baseline: ['-e', '0'],
        version: [BIN, '--version'],
        help: [BIN, '--help'],
        nounHelp: [BIN, 'customers', '--help'],
        verbHelp: [BIN, 'customers', 'list', '--help'],
        real: [BIN, 'customers', 'get', '1', '-o', 'json'],
      },
      runs,
      env,
    );
    // Medians, with the spread of the runs (min–max) beside them; the ratio's spread is that of the rounds' ratios.
    const row = (figure, name, target) => ({
      figure,
      value: `${spread(times[name], 1)} ms`,
      baseline: `node -e 0: ${spread(times.baseline, 1)} ms`,
      ratio: ratios[name],
      spread: [Math.min(...perRound[name]), Math.max(...perRound[name])],
      target,
    });
    return [
      row('clinic --version', 'version', 1.15),
      row('clinic --help', 'help', 1.3),
      row('clinic customers --help', 'nounHelp', 1.3),
      row('clinic customers list --help', 'verbHelp', 1.3),
      row('clinic customers get 1 -o json (sandbox with rate-limit headers, stored login)', 'real', 2),
    ];
  } finally {
    sandbox.stop();
  }
}
