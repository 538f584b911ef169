// The compile cache shipped with the build: dist/bundle/main.cjs.cache, V8's code cache of the bundle as bin/clinic.js
// compiles it on Node 20 (vm.Script), after the bundle's top level and one quick command (`config list`, on an empty
// config) have run, so it holds what every command runs: building the program, parsing, the config, the output. A
// command's first run (no cache of its own yet: the first run after an install) starts from it instead of compiling
// the whole bundle. Made by the Node that builds; another Node version's V8 rejects it and compiles from the source.
// Run after scripts/bundle.mjs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { compileBundle } = require('../bin/clinic.js');
const file = fileURLToPath(new URL('../dist/bundle/main.cjs', import.meta.url));
const { script, main } = compileBundle(file, undefined);

const configDir = mkdtempSync(join(tmpdir(), 'clinic-compile-cache-'));
try {
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  const code = await main(['config', 'list', '-o', 'json'], {
    streams: { stdin: process.stdin, stdout: discard, stderr: process.stderr },
    env: { CLINIC_CONFIG_DIR: configDir },
    signal: new AbortController().signal,
  });
  if (code !== 0) throw new Error(`clinic config list exited ${code}`);
} finally {
  rmSync(configDir, { recursive: true, force: true });
}
writeFileSync(`${file}.cache`, script.createCachedData());
