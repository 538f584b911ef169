#!/usr/bin/env node
// Entry point: the only place that exits the process. CommonJS (bin/package.json), so the commonest calls never
// start Node's ES module loader: `--version` and `--help` are answered from files, everything else loads the
// bundled CLI (dist/bundle/main.cjs, built by scripts/bundle.mjs).
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const argv = process.argv.slice(2);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(
    `${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`,
  );
} else if (!answerHelp(argv)) {
  run();
}

/**
 * `clinic [COMMAND...] --help`: the text commander prints, rendered at build time (scripts/help-cache.mjs, checked
 * against the live rendering by test/e2e/startup.test.ts). Help is 80 columns wide; a narrower terminal, or
 * anything but plain command words before the flag, takes the live path.
 */
function answerHelp(args) {
  const last = args[args.length - 1];
  if (last !== '--help' && last !== '-h') return false;
  const words = args.slice(0, -1);
  if (words.some((word) => word.startsWith('-'))) return false;
  if (process.stdout.isTTY && (process.stdout.columns || 80) < 80) return false;
  let texts;
  try {
    texts = JSON.parse(readFileSync(join(__dirname, '..', 'dist', 'help.json'), 'utf8'));
  } catch {
    return false;
  }
  const text = texts[words.join(' ')];
  if (typeof text !== 'string') return false;
  process.stdout.write(text);
  return true;
}

function run() {
  if (argv.includes('--debug') || process.env.CLINIC_DEBUG) process.setSourceMapsEnabled(true);
  const { main } = require('../dist/bundle/main.cjs');
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
  // stdin is opened only by the commands that read it (a getter: opening it costs every start-up).
  const streams = {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
  };
  main(argv, { streams, env: process.env, signal: interrupt.signal }).then((code) => {
    // Leave once stdout has drained, so piped output is never cut short.
    process.stdout.write('', (error) => {
      if (error && error.code !== 'EPIPE') cannotWrite(error);
      process.exit(code);
    });
  });
}

/** A full disk or a broken output: one line, exit 1, never a stack trace. */
function cannotWrite(error) {
  process.stderr.write(`error: cannot write the output (${error.code ?? error.message})\n`);
  process.exit(1);
}
