// The compile cache shipped with the build: dist/bundle/main.cjs.cache, V8's code cache of the bundle as bin/clinic.js
// compiles it on Node 20 (vm.Script), after the bundle's top level has run. A command's first run (no cache of its
// own yet: the first run after an install) starts from it instead of compiling the whole bundle. Made by the Node
// that builds; another Node version's V8 rejects it and compiles from the source. Run after scripts/bundle.mjs.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { compileBundle } = require('../bin/clinic.js');
const file = fileURLToPath(new URL('../dist/bundle/main.cjs', import.meta.url));
const { script } = compileBundle(file, undefined);
writeFileSync(`${file}.cache`, script.createCachedData());
