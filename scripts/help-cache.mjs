// Renders `clinic [COMMAND...] --help` for every command of the built CLI into dist/help.json, which bin/clinic.js
// prints without loading the CLI. Run after scripts/bundle.mjs; test/e2e/cli/startup.test.ts checks every entry
// against the live rendering.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';

const require = createRequire(import.meta.url);
const { main, commandPaths } = require('../dist/bundle/main.cjs');

async function helpOf(path) {
  let text = '';
  const stdout = new Writable({
    write(chunk, _encoding, done) {
      text += chunk;
      done();
    },
  });
  const code = await main([...path, '--help'], {
    streams: { stdin: process.stdin, stdout, stderr: process.stderr },
    env: {},
    signal: new AbortController().signal,
  });
  if (code !== 0) throw new Error(`clinic ${path.join(' ')} --help exited ${code}`);
  return text;
}

const texts = {};
for (const path of [[], ...(await commandPaths())]) texts[path.join(' ')] = await helpOf(path);
writeFileSync(new URL('../dist/help.json', import.meta.url), `${JSON.stringify(texts)}\n`);
