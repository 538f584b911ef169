// Start-up: --version, --help, a noun's and a verb's help, and a real command, against `node -e 0`.
import { alternate, BIN, cleanEnv, sandboxProcess, signIn, tempDir } from './common.mjs';

export async function startupBench(runs) {
  const home = tempDir('clinic-bench-home-');
  // Rate limiting on, as the API has it (every answer carries X-RateLimit-* headers), at a limit no run reaches.
  const sandbox = await sandboxProcess(['--rate-limit', '1000000'], cleanEnv(home));
  try {
    const env = await signIn(home, sandbox.ready);
    const { medians: t, ratios } = alternate(
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
    const row = (figure, name, target) => ({
      figure,
      value: `${t[name].toFixed(1)} ms`,
      baseline: `node -e 0: ${t.baseline.toFixed(1)} ms`,
      ratio: ratios[name],
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
