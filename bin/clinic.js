#!/usr/bin/env node
// Entry point: the only place that exits the process.
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);

// `clinic --version` is on every script's hot path: answer it without loading the command tree.
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  await run();
}

async function run() {
  const { main } = await import('../dist/cli/main.js');
  const interrupt = new AbortController();
  const stop = () => {
    // First Ctrl-C: let the command flush its partial output; a second one leaves at once.
    if (interrupt.signal.aborted) process.exit(130);
    interrupt.abort();
    setTimeout(() => process.exit(130), 2000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // `clinic ... | head`: a closed pipe ends the run quietly.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    cannotWrite(error);
  });

  const code = await main(argv, {
    streams: { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
    env: process.env,
    signal: interrupt.signal,
  });
  // Leave once stdout has drained, so piped output is never cut short.
  process.stdout.write('', (error) => {
    if (error && error.code !== 'EPIPE') cannotWrite(error);
    process.exit(code);
  });
}

/** A full disk or a broken output: one line, exit 1, never a stack trace. */
function cannotWrite(error) {
  process.stderr.write(`error: cannot write the output (${error.code ?? error.message})\n`);
  process.exit(1);
}
