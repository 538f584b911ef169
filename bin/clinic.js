#!/usr/bin/env node
// Entry point: the only place that exits the process.
import { main } from '../dist/cli/main.js';

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
  throw error;
});

const code = await main(process.argv.slice(2), {
  streams: { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
  env: process.env,
  signal: interrupt.signal,
});
process.exitCode = code;
// Wait for stdout to drain before leaving, so piped output is never cut short.
process.stdout.write('', () => process.exit(code));
