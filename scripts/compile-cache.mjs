// The build's copy of the bundle that bin/clinic.js compiles on Node 20 (vm.Script), in two parts, and V8's code
// caches of it. The commands most runs share (scripts/warm-up.mjs) are run once to see which chunks they load: those
// stay in dist/bundle/main.function.cjs, the others go to dist/bundle/main.more.cjs (scripts/bundle/chunks.mjs,
// splitChunks), which a run reads and compiles only when it asks for one of them. Then the caches:
// - dist/bundle/main.cjs.cache, made after the bundle's top level and the commands most runs share have run once
//   (scripts/warm-up.mjs: config, building the program, signing a request, reading an answer, the output). A
//   command's first run (no cache of its own yet: the first run after an install) starts from it instead of compiling
//   the whole bundle.
// - dist/bundle/main.cjs.SHAPE.cache, one for each of those commands, made after that command alone ran in a process
//   of its own (SHAPE: bin/clinic.js's shapeName of the run). A run like it takes this one, which holds only what it
//   runs: V8 reads a quarter less than the cache of them all. main.cjs.cache.json lists the runs warmed.
// Made by the Node that builds, in processes of their own with no flags (V8 takes a cache only from a V8 with the
// same flags); another Node version's V8 rejects them and compiles from the source. Run after tsc (the sandbox) and
// scripts/bundle.mjs. `node scripts/compile-cache.mjs --alone COMMAND` is the process of one command (JSON, as
// warm-up.mjs lists them), its settings in the environment it is given.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { splitChunks } from './bundle/chunks.mjs';
import { WARM_UP_COMMANDS, runWarmUp, warmUp } from './warm-up.mjs';

const require = createRequire(import.meta.url);
const { compileBundle, runShape, shapeCacheFile, shapeName, wrapForVm } = require('../bin/clinic.js');
const file = fileURLToPath(new URL('../dist/bundle/main.cjs', import.meta.url));
const SCRIPT = fileURLToPath(import.meta.url);
/** The name of a warmed command's cache alone: its shape, and whether it wrote to a terminal. */
const shapeOf = (command) => shapeName(runShape(command.argv), command.terminal === true);

if (process.argv[2] === '--alone') {
  const command = JSON.parse(process.argv[3]);
  const { script, main } = compileBundle(file, undefined);
  await runWarmUp(main, command, process.env);
  writeFileSync(shapeCacheFile(file, shapeOf(command)), script.createCachedData());
} else {
  // A cache V8 takes is checked against the source's length only: none of an earlier build may stay beside this one.
  for (const name of readdirSync(dirname(file)))
    if ((name.startsWith('main.') && name.endsWith('.cache')) || name === 'main.more.cjs')
      rmSync(join(dirname(file), name));
  await split();
  const { script, main } = compileBundle(file, undefined);
  // Each command again, alone, while the sandbox it ran against is there.
  const warmed = await warmUp(main, { each: runAlone });
  writeFileSync(`${file}.cache`, script.createCachedData());
  // The runs it was made with: a first run like one of them takes its cache as its own and writes none.
  const commands = warmed.map(({ argv }) => runShape(argv));
  // And the names of their caches alone (shapeOf).
  writeFileSync(`${file}.cache.json`, `${JSON.stringify({ commands, alone: warmed.map(shapeOf) })}\n`);
}

/** One command in a process of its own (this script, --alone): its cache, or a warning if it could not run. */
function runAlone(command, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT, '--alone', JSON.stringify(command)], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let told = '';
    child.stderr.on('data', (chunk) => (told += chunk));
    child.on('close', (code) => {
      if (code !== 0)
        process.stderr.write(
          `warning: no compile cache of 'clinic ${command.argv.join(' ')}' alone (${told.trim() || `exit ${code}`})\n`,
        );
      resolve();
    });
  });
}

/**
 * Splits the build's copy in two: the chunks the warmed commands load, and the others (main.more.cjs). Left whole
 * when not every command could be warmed (no loopback for the sandbox): a chunk one of them needs would be left out.
 */
async function split() {
  const code = readFileSync(file, 'utf8'); // the offsets count its characters, as combineChunks did
  const chunks = JSON.parse(readFileSync(`${file}.chunks.json`, 'utf8'));
  // The whole bundle, its loader telling which chunks run (into `module.loaded`).
  const run = 'function __chunk(name) { const run = __chunks[name];';
  const whole = wrapForVm(code);
  if (!whole.includes(run))
    throw new Error("the bundle's loader is not as scripts/bundle/chunks.mjs writes it");
  const told = whole.replace(
    run,
    `function __chunk(name) { (module.loaded ??= new Set()).add(name); ${run.slice(24)}`,
  );
  const { main, module } = compileBundle(file, undefined, told);
  const warmed = await warmUp(main);
  const wrapped = join(dirname(file), 'main.function.cjs');
  if (warmed.length < WARM_UP_COMMANDS.length) {
    writeFileSync(wrapped, whole);
    return;
  }
  const { core, more } = splitChunks(code, chunks, module.loaded);
  writeFileSync(wrapped, wrapForVm(core));
  const moreFile = join(dirname(file), 'main.more.cjs');
  writeFileSync(moreFile, more);
  // Its own cache, of its top level alone (each chunk's function made, none run): a first run that needs the part
  // starts from it instead of scanning all its text.
  const script = new Script(more, { filename: moreFile });
  script.runInThisContext()(
    () => Promise.reject(new Error('no import here')),
    () => '',
    undefined,
    Object.create(null),
  );
  writeFileSync(`${moreFile}.cache`, script.createCachedData());
}
