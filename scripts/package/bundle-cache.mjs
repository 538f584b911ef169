// `node scripts/package/bundle-cache.mjs WRAPPED OUT`: V8's code cache of the bundled CLI as the single executable
// compiles it (WRAPPED: dist/bundle/main.cjs through src/executable/installation.ts's wrapBundle), made after the
// commands most runs share have run once against a local sandbox (scripts/warm-up.mjs: config, building the program,
// signing requests, reading an answer, the output), so the executable compiles none of that at start-up. Run by
// scripts/package.mjs in a Node of its own, with no flags: V8 takes a cache only from a V8 with the same flags, and
// the executable runs with none.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_ASSET, runBundle } from '../../dist/executable/installation.js';
import { warmUp } from '../warm-up.mjs';

const [wrapped, out] = process.argv.slice(2);
const { main, script } = runBundle(readFileSync(wrapped, 'utf8'), join('/clinic', BUNDLE_ASSET));
// A release is made with every command warmed, or not at all (tables included).
await warmUp(main, { strict: true });
writeFileSync(out, script.createCachedData());
