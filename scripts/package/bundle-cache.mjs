// `node scripts/package/bundle-cache.mjs WRAPPED OUT`: V8's code caches of the bundled CLI as the single executable
// compiles it (WRAPPED: dist/bundle/main.cjs through src/executable/installation.ts's wrapBundle), made against a
// local sandbox (scripts/warm-up.mjs: config, building the program, signing requests, reading an answer, the output),
// so the executable compiles none of that at start-up:
// - OUT, after the commands most runs share have run once: where a run starts from;
// - OUT.SHAPE, one for each of those commands, after it alone ran in a process of its own (SHAPE: bin/clinic.js's
//   shapeName of its run), which a run like it takes: only what it runs. OUT.json lists the shapes.
// Run by scripts/package.mjs in a Node of its own, with no flags: V8 takes a cache only from a V8 with the same
// flags, and the executable runs with none. `--alone COMMAND WRAPPED OUT` is the process of one command.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_ASSET, runBundle } from '../../dist/executable/installation.js';
import { runWarmUp, warmUp } from '../warm-up.mjs';

const { runShape, shapeName } = createRequire(import.meta.url)('../../bin/clinic.js');
const compile = (wrapped) => runBundle(readFileSync(wrapped, 'utf8'), join('/clinic', BUNDLE_ASSET));
const shapeOf = (command) => shapeName(runShape(command.argv), command.terminal === true);

if (process.argv[2] === '--alone') {
  const [, , , command, wrapped, out] = process.argv;
  const { main, script } = compile(wrapped);
  await runWarmUp(main, JSON.parse(command), process.env);
  writeFileSync(`${out}.${shapeOf(JSON.parse(command))}`, script.createCachedData());
} else {
  const [wrapped, out] = process.argv.slice(2);
  const { main, script } = compile(wrapped);
  // A release is made with every command warmed, or not at all (tables included): each alone too.
  const warmed = await warmUp(main, {
    strict: true,
    each: (command, env) => alone(command, env, wrapped, out),
  });
  writeFileSync(out, script.createCachedData());
  writeFileSync(`${out}.json`, `${JSON.stringify(warmed.map(shapeOf))}\n`);
}

/** One command in a process of its own (--alone): its cache, or the release fails. */
function alone(command, env, wrapped, out) {
  const script = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, '--alone', JSON.stringify(command), wrapped, out], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let told = '';
    child.stderr.on('data', (chunk) => (told += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(`the cache of 'clinic ${command.argv.join(' ')}' alone: exit ${code}: ${told.trim()}`),
          ),
    );
  });
}
