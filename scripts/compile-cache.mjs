// The compile cache shipped with the build: dist/bundle/main.cjs.cache, V8's code cache of the bundle as bin/clinic.js
// compiles it on Node 20 (vm.Script), made after the bundle's top level and the commands most runs share have run
// once (scripts/warm-up.mjs: config, building the program, signing a request, reading an answer, the output). A
// command's first run (no cache of its own yet: the first run after an install) starts from it instead of compiling
// the whole bundle; a run like one it was made with (main.cjs.cache.json lists their shapes) keeps it as its own.
// Made by the Node that builds, in a process of its own with no flags (V8 takes a cache only from a V8 with the same
// flags); another Node version's V8 rejects it and compiles from the source. Run after tsc (the sandbox) and
// scripts/bundle.mjs.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { warmUp } from './warm-up.mjs';

const require = createRequire(import.meta.url);
const { compileBundle, runShape } = require('../bin/clinic.js');
const file = fileURLToPath(new URL('../dist/bundle/main.cjs', import.meta.url));
const { script, main } = compileBundle(file, undefined);
const warmed = await warmUp(main);
writeFileSync(`${file}.cache`, script.createCachedData());
// The runs it was made with: a first run like one of them takes it as its own and writes none (bin/clinic.js).
const commands = warmed.map(({ argv }) => runShape(argv));
writeFileSync(`${file}.cache.json`, `${JSON.stringify({ commands })}\n`);
